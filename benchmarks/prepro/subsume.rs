//! How much subsumption and bounded variable elimination could take from the completion's nogoods
//! (#28, preprocessing): for each ground program under $GROUND (default /tmp/g), the nogoods
//! another subsumes, those a self-subsuming resolution would strengthen, and the variables (out of
//! weight constraints) whose non-tautological resolvents are no more than their occurrences, each
//! counted alone. A throwaway analysis, not a test of the solver:
//!
//!     cp benchmarks/prepro/subsume.rs tests/ && GROUND=/tmp/g cargo test --release --test subsume -- --nocapture
//!
//! (then remove tests/subsume.rs). `subsume.txt`: ten anchor instances, 2026-11-28.
use yasmin::input::read_program;
use yasmin::nogoods::complete;
use yasmin::stop::StopToken;
use std::collections::HashSet;

#[test]
fn subsume() {
    let dir = std::env::var("GROUND").unwrap_or_else(|_| "/tmp/g".into());
    for f in std::fs::read_dir(dir).unwrap() {
        let path = f.unwrap().path();
        let p = read_program(&std::fs::read(&path).unwrap()).unwrap();
        let prob = complete(&p, &StopToken::never(), 3).unwrap();
        let st = &prob.store;
        let n = st.len();
        let nl = 2 * prob.num_vars as usize + 2;
        let mut occ: Vec<Vec<u32>> = vec![Vec::new(); nl];
        let mut sets: Vec<HashSet<u32>> = Vec::with_capacity(n);
        for i in 0..n {
            let ng = st.nogood(i);
            for l in ng { occ[l.index()].push(i as u32); }
            sets.push(ng.iter().map(|l| l.0).collect());
        }
        let (mut subsumed, mut strengthen, mut total_lits) = (0usize, 0usize, 0usize);
        for i in 0..n {
            let ng = st.nogood(i);
            total_lits += ng.len();
            // candidates subsuming i: nogoods that contain the literal of i with fewest occurrences
            let best = ng.iter().min_by_key(|l| occ[l.index()].len()).unwrap();
            let mut found = false;
            for &j in &occ[best.index()] {
                let j = j as usize;
                if j == i { continue; }
                let o = st.nogood(j);
                if o.len() < ng.len() || (o.len() == ng.len() && j < i) {
                    if o.iter().all(|x| sets[i].contains(&x.0)) { found = true; break; }
                }
            }
            if found { subsumed += 1; continue; }
            // self-subsuming: some other nogood o = C' + {!l} with C' subset of ng - {l}, l in ng
            'outer: for &l in ng {
                for &j in &occ[(!l).index()] {
                    let o = st.nogood(j as usize);
                    if o.len() <= ng.len() && o.iter().all(|x| *x == !l || sets[i].contains(&x.0)) { strengthen += 1; break 'outer; }
                }
            }
        }
        // Bounded variable elimination potential: variables (not atoms, not in weight constraints)
        // whose non-tautological resolvents number at most their occurrences.
        let mut in_weights = vec![false; prob.num_vars as usize];
        for c in 0..prob.weights.len() {
            for l in &prob.weights.lits[prob.weights.range(c)] { in_weights[l.var() as usize] = true; }
            in_weights[prob.weights.lit[c].var() as usize] = true;
        }
        let mut elim = 0usize;
        let mut elim_atoms = 0usize;
        for v in 1..prob.num_vars {
            if in_weights[v as usize] { continue; }
            let pos = &occ[yasmin::nogoods::Lit::pos(v).index()];
            let neg = &occ[yasmin::nogoods::Lit::neg(v).index()];
            if pos.is_empty() || neg.is_empty() || pos.len() * neg.len() > 400 { continue; }
            let mut res = 0usize;
            for &a in pos.iter() { for &b in neg.iter() {
                let na = st.nogood(a as usize); let nb = st.nogood(b as usize);
                let taut = na.iter().any(|x| x.var() != v && nb.contains(&!*x));
                if !taut { res += 1; }
            }}
            if res <= pos.len() + neg.len() { if v <= prob.num_atoms { elim_atoms += 1; } else { elim += 1; } }
        }
        let bve = format!("   vars {} atoms {} eliminable non-atoms {elim} atoms {elim_atoms}", prob.num_vars, prob.num_atoms);
        println!("{:60} nogoods {n} lits {total_lits} subsumed {subsumed} ({:.1}%) strengthenable {strengthen} ({:.1}%)",
            path.file_name().unwrap().to_string_lossy(), 100.0 * subsumed as f64 / n as f64, 100.0 * strengthen as f64 / n as f64);
        println!("{bve}");
    }
}
