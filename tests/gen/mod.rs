//! A seeded random generator of small answer set programs for the differential test: clingo
//! input text (`.lp`, ground by gringo) and, for shapes gringo never writes itself, raw aspif.
//!
//! Every feature can be switched on or off ([`Features`]); programs stay within `max_atoms`
//! ground atoms (gringo may add auxiliary atoms for aggregates). No `#show` is emitted, so every
//! atom is shown and answer sets compare as sets of atom strings. Programs are kept as small
//! syntax trees so that a failing program can be shrunk ([`LpProgram::shrink_candidates`],
//! [`AspifProgram::shrink_candidates`]).
#![allow(dead_code)]

pub mod qbf;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::{self, Write as _};

/// splitmix64: small, seedable, and good enough for test generation.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let mut r = Rng(seed ^ 0x5DEE_CE66_D1CE_F00D);
        r.next();
        r
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo + 1) as u64)) as i64
    }
    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
    pub fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
}

/// Which constructs the generator may use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    pub normal: bool,
    pub facts: bool,
    pub negation: bool,
    /// Positive loops (non-tight programs).
    pub loops: bool,
    pub choice: bool,
    pub choice_bounds: bool,
    pub constraints: bool,
    pub count: bool,
    pub sum: bool,
    /// Aggregate bodies that mention the rule's own head atoms.
    pub self_agg: bool,
    pub disjunction: bool,
    pub head_cycles: bool,
    pub minimize: bool,
    pub project: bool,
    pub externals: bool,
    /// Non-ground rules over a small domain (gringo instantiates them).
    pub variables: bool,
    /// `#edge` statements (acyclicity constraints).
    pub edges: bool,
    /// `#heuristic` statements (they never change the answer sets).
    pub heuristics: bool,
}

impl Features {
    pub fn all() -> Features {
        Features {
            normal: true,
            facts: true,
            negation: true,
            loops: true,
            choice: true,
            choice_bounds: true,
            constraints: true,
            count: true,
            sum: true,
            self_agg: true,
            disjunction: true,
            head_cycles: true,
            minimize: true,
            project: true,
            externals: true,
            variables: true,
            edges: true,
            heuristics: true,
        }
    }
    pub fn none() -> Features {
        Features {
            normal: false,
            facts: false,
            negation: false,
            loops: false,
            choice: false,
            choice_bounds: false,
            constraints: false,
            count: false,
            sum: false,
            self_agg: false,
            disjunction: false,
            head_cycles: false,
            minimize: false,
            project: false,
            externals: false,
            variables: false,
            edges: false,
            heuristics: false,
        }
    }
    /// Each feature on with probability `p` (normal rules always on).
    pub fn random(rng: &mut Rng, p: f64) -> Features {
        Features {
            normal: true,
            facts: rng.chance(p),
            negation: rng.chance(p.max(0.8)),
            loops: rng.chance(p),
            choice: rng.chance(p.max(0.7)),
            choice_bounds: rng.chance(p),
            constraints: rng.chance(p),
            count: rng.chance(p),
            sum: rng.chance(p),
            self_agg: rng.chance(p),
            disjunction: rng.chance(p * 0.6),
            head_cycles: rng.chance(p * 0.6),
            minimize: rng.chance(p),
            project: rng.chance(p * 0.6),
            externals: rng.chance(p * 0.4),
            variables: rng.chance(p * 0.6),
            edges: rng.chance(p * 0.4),
            heuristics: rng.chance(p * 0.4),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Config {
    /// Ground atoms at most (not counting gringo's auxiliary atoms).
    pub max_atoms: usize,
    pub min_rules: usize,
    pub max_rules: usize,
    /// Body items (literals or aggregates) per rule at most.
    pub max_body: usize,
    pub features: Features,
}

impl Default for Config {
    fn default() -> Config {
        Config { max_atoms: 12, min_rules: 2, max_rules: 9, max_body: 3, features: Features::all() }
    }
}

// ---------------------------------------------------------------------------------------------
// .lp programs

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AggFun {
    Count,
    Sum,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AggElem {
    pub terms: Vec<String>,
    pub cond: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Agg {
    pub negated: bool,
    pub fun: AggFun,
    pub lower: Option<i64>,
    pub upper: Option<i64>,
    pub elems: Vec<AggElem>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BodyItem {
    /// A literal as written: `a`, `not p(X)`, `d(X)`.
    Lit(String),
    Agg(Agg),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChoiceElem {
    pub atom: String,
    pub cond: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Head {
    /// A disjunction; one atom is a normal rule, none an integrity constraint.
    Disj(Vec<String>),
    Choice {
        lower: Option<i64>,
        upper: Option<i64>,
        elems: Vec<ChoiceElem>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MinElem {
    pub weight: i64,
    pub prio: i64,
    pub terms: Vec<String>,
    pub cond: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    Rule {
        head: Head,
        body: Vec<BodyItem>,
    },
    /// `#minimize` (or `#maximize` when `maximize`).
    Minimize {
        maximize: bool,
        elems: Vec<MinElem>,
    },
    /// `#project a.` or `#project p/1.`
    Project(String),
    /// `#external a. [value]`
    External {
        atom: String,
        value: Option<&'static str>,
    },
    /// `#edge (nU,nV) : cond.`
    Edge {
        u: i64,
        v: i64,
        cond: Vec<String>,
    },
    /// `#heuristic atom : cond. [value, modifier]`
    Heuristic {
        atom: String,
        cond: Vec<String>,
        value: i64,
        modifier: &'static str,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LpProgram {
    pub stmts: Vec<Stmt>,
}

fn lit_atom(l: &str) -> (bool, &str) {
    match l.strip_prefix("not ") {
        Some(a) => (false, a),
        None => (true, l),
    }
}

impl fmt::Display for Agg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.negated {
            f.write_str("not ")?;
        }
        if let Some(l) = self.lower {
            write!(f, "{l} <= ")?;
        }
        f.write_str(match self.fun {
            AggFun::Count => "#count { ",
            AggFun::Sum => "#sum { ",
        })?;
        let elems: Vec<String> =
            self.elems.iter().map(|e| format!("{}: {}", e.terms.join(","), e.cond.join(", "))).collect();
        f.write_str(&elems.join("; "))?;
        f.write_str(" }")?;
        if let Some(u) = self.upper {
            write!(f, " <= {u}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Stmt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stmt::Rule { head, body } => {
                match head {
                    Head::Disj(atoms) => f.write_str(&atoms.join(" ; "))?,
                    Head::Choice { lower, upper, elems } => {
                        if let Some(l) = lower {
                            write!(f, "{l} ")?;
                        }
                        let es: Vec<String> = elems
                            .iter()
                            .map(|e| {
                                if e.cond.is_empty() {
                                    e.atom.clone()
                                } else {
                                    format!("{} : {}", e.atom, e.cond.join(", "))
                                }
                            })
                            .collect();
                        write!(f, "{{ {} }}", es.join("; "))?;
                        if let Some(u) = upper {
                            write!(f, " {u}")?;
                        }
                    }
                }
                let empty_head = matches!(head, Head::Disj(a) if a.is_empty());
                if !body.is_empty() || empty_head {
                    f.write_str(if empty_head { ":- " } else { " :- " })?;
                    let items: Vec<String> = body
                        .iter()
                        .map(|b| match b {
                            BodyItem::Lit(l) => l.clone(),
                            BodyItem::Agg(a) => a.to_string(),
                        })
                        .collect();
                    f.write_str(&items.join(", "))?;
                }
                f.write_str(".")
            }
            Stmt::Minimize { maximize, elems } => {
                let es: Vec<String> = elems
                    .iter()
                    .map(|e| {
                        let mut s = format!("{}@{}", e.weight, e.prio);
                        for t in &e.terms {
                            write!(s, ",{t}").unwrap();
                        }
                        if !e.cond.is_empty() {
                            write!(s, ": {}", e.cond.join(", ")).unwrap();
                        }
                        s
                    })
                    .collect();
                write!(f, "{} {{ {} }}.", if *maximize { "#maximize" } else { "#minimize" }, es.join("; "))
            }
            Stmt::Project(a) => write!(f, "#project {a}."),
            Stmt::External { atom, value } => match value {
                Some(v) => write!(f, "#external {atom}. [{v}]"),
                None => write!(f, "#external {atom}."),
            },
            Stmt::Edge { u, v, cond } if cond.is_empty() => write!(f, "#edge (n{u},n{v})."),
            Stmt::Edge { u, v, cond } => write!(f, "#edge (n{u},n{v}) : {}.", cond.join(", ")),
            Stmt::Heuristic { atom, cond, value, modifier } if cond.is_empty() => {
                write!(f, "#heuristic {atom}. [{value}, {modifier}]")
            }
            Stmt::Heuristic { atom, cond, value, modifier } => {
                write!(f, "#heuristic {atom} : {}. [{value}, {modifier}]", cond.join(", "))
            }
        }
    }
}

impl fmt::Display for LpProgram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in &self.stmts {
            writeln!(f, "{s}")?;
        }
        Ok(())
    }
}

struct LpGen<'a> {
    rng: Rng,
    cfg: &'a Config,
    /// Ground atoms that may occur in bodies.
    body_pool: Vec<String>,
    /// Ground atoms that may occur in heads (externals excluded).
    head_pool: Vec<String>,
    /// Non-ground predicates `p(X)` over the domain `d(1..2)`.
    preds: Vec<String>,
    next_term: usize,
}

impl LpGen<'_> {
    fn term(&mut self) -> String {
        self.next_term += 1;
        format!("t{}", self.next_term)
    }

    fn lit(&mut self, pool: &[String]) -> String {
        let a = self.rng.pick(pool).clone();
        if self.cfg.features.negation && self.rng.chance(0.35) { format!("not {a}") } else { a }
    }

    fn agg_fun(&mut self) -> Option<AggFun> {
        let f = &self.cfg.features;
        match (f.count, f.sum) {
            (true, true) => Some(if self.rng.chance(0.5) { AggFun::Count } else { AggFun::Sum }),
            (true, false) => Some(AggFun::Count),
            (false, true) => Some(AggFun::Sum),
            (false, false) => None,
        }
    }

    /// An aggregate over literals from `pool` (and, if given, the atoms in `own`).
    fn agg(&mut self, fun: AggFun, pool: &[String], own: &[String]) -> Agg {
        let n = self.rng.range(1, 3) as usize;
        let mut elems = Vec::new();
        let mut total = 0;
        for i in 0..n {
            let mut cond = Vec::new();
            if !own.is_empty() && (i == 0 || self.rng.chance(0.5)) {
                let a = self.rng.pick(own).clone();
                let neg = self.cfg.features.negation && self.rng.chance(0.5);
                cond.push(if neg { format!("not {a}") } else { a });
            } else {
                cond.push(self.lit(pool));
            }
            if self.rng.chance(0.2) {
                cond.push(self.lit(pool));
            }
            let mut terms = Vec::new();
            if fun == AggFun::Sum {
                let w = if self.rng.chance(0.15) { self.rng.range(-2, -1) } else { self.rng.range(0, 3) };
                total += w.max(0);
                terms.push(w.to_string());
            } else {
                total += 1;
            }
            // Mostly distinct tuples; sometimes a shared one (set semantics collapses it).
            if self.rng.chance(0.85) || elems.is_empty() {
                let t = self.term();
                terms.push(t);
            } else {
                let prev: &AggElem = elems.last().unwrap();
                terms = prev.terms.clone();
            }
            elems.push(AggElem { terms, cond });
        }
        let lower =
            self.rng.chance(0.8).then(|| self.rng.range(if fun == AggFun::Sum { -1 } else { 0 }, total + 1));
        let upper = (lower.is_none() || self.rng.chance(0.3))
            .then(|| self.rng.range(lower.unwrap_or(0).max(0), total + 1));
        let negated = self.cfg.features.negation && self.rng.chance(0.15);
        Agg { negated, fun, lower, upper, elems }
    }

    fn body(&mut self, max: usize, own: &[String]) -> Vec<BodyItem> {
        let n = self.rng.below(max + 1);
        let pool = self.body_pool.clone();
        let mut items: Vec<BodyItem> = Vec::new();
        for _ in 0..n {
            match self.agg_fun() {
                Some(fun) if self.rng.chance(0.25) => {
                    let use_own = self.cfg.features.self_agg && !own.is_empty() && self.rng.chance(0.5);
                    let own = if use_own { own } else { &[] };
                    items.push(BodyItem::Agg(self.agg(fun, &pool, own)));
                }
                _ => {
                    // Mostly one literal per atom: a repeated atom rarely tells anything new.
                    let l = self.lit(&pool);
                    let atom = lit_atom(&l).1.to_string();
                    let seen = items.iter().any(|b| matches!(b, BodyItem::Lit(m) if lit_atom(m).1 == atom));
                    if !seen || self.rng.chance(0.15) {
                        items.push(BodyItem::Lit(l));
                    }
                }
            }
        }
        items
    }

    fn distinct_heads(&mut self, n: usize) -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        for _ in 0..n * 3 {
            if v.len() == n {
                break;
            }
            let a = self.rng.pick(&self.head_pool).clone();
            if !v.contains(&a) {
                v.push(a);
            }
        }
        v
    }

    fn choice(&mut self) -> Stmt {
        let n = self.rng.range(1, 3) as usize;
        let atoms = self.distinct_heads(n);
        let mut elems = Vec::new();
        for a in &atoms {
            let cond = if self.rng.chance(0.12) { vec![self.lit(&self.body_pool.clone())] } else { vec![] };
            elems.push(ChoiceElem { atom: a.clone(), cond });
        }
        let (mut lower, mut upper) = (None, None);
        if self.cfg.features.choice_bounds {
            if self.rng.chance(0.4) {
                lower = Some(self.rng.range(0, atoms.len() as i64));
            }
            if self.rng.chance(0.4) {
                upper = Some(self.rng.range(lower.unwrap_or(0), atoms.len() as i64));
            }
        }
        // Aggregates in the body of a choice rule that mention its own heads: the case clingo's
        // default preprocessing of aspif gets wrong.
        let mut body = self.body(self.cfg.max_body.min(2), &atoms);
        if self.cfg.features.self_agg
            && self.rng.chance(0.4)
            && let Some(fun) = self.agg_fun()
        {
            let pool = self.body_pool.clone();
            body.push(BodyItem::Agg(self.agg(fun, &pool, &atoms)));
        }
        Stmt::Rule { head: Head::Choice { lower, upper, elems }, body }
    }

    fn nonground(&mut self) -> Vec<Stmt> {
        let p = self.rng.pick(&self.preds).clone();
        let q = self.rng.pick(&self.preds).clone();
        let px = format!("{p}(X)");
        let qx = format!("{q}(X)");
        let neg = self.cfg.features.negation;
        match self.rng.below(4) {
            0 => {
                // p(X) :- d(X), [not] q(X), [lit].
                let mut body = vec![BodyItem::Lit("d(X)".into())];
                body.push(BodyItem::Lit(if neg && self.rng.chance(0.6) { format!("not {qx}") } else { qx }));
                if self.rng.chance(0.4) {
                    let l = self.lit(&self.body_pool.clone());
                    body.push(BodyItem::Lit(l));
                }
                vec![Stmt::Rule { head: Head::Disj(vec![px]), body }]
            }
            1 if self.cfg.features.choice => {
                // { p(X) : d(X) } [1] :- body.
                let upper = (self.cfg.features.choice_bounds && self.rng.chance(0.6)).then_some(1);
                let elems = vec![ChoiceElem { atom: px, cond: vec!["d(X)".into()] }];
                let body = self.body(1, &[]);
                vec![Stmt::Rule { head: Head::Choice { lower: None, upper, elems }, body }]
            }
            2 if self.cfg.features.count || self.cfg.features.sum => {
                // h :- L <= #count { X: p(X) }.  or a constraint on it.
                let fun = self.agg_fun().unwrap();
                let mut terms = vec!["X".to_string()];
                if fun == AggFun::Sum {
                    terms.insert(0, "X".into());
                }
                let cond = if neg && self.rng.chance(0.3) {
                    vec!["d(X)".to_string(), format!("not {px}")]
                } else {
                    vec![px]
                };
                let lo = self.rng.range(1, 3);
                let lower = Some(lo);
                let upper = self.rng.chance(0.3).then(|| self.rng.range(lo, 3));
                let agg = Agg { negated: false, fun, lower, upper, elems: vec![AggElem { terms, cond }] };
                let head = if self.cfg.features.constraints && self.rng.chance(0.4) {
                    Head::Disj(vec![])
                } else {
                    Head::Disj(vec![self.rng.pick(&self.head_pool).clone()])
                };
                vec![Stmt::Rule { head, body: vec![BodyItem::Agg(agg)] }]
            }
            _ => {
                // p(X) :- d(X), a.   or   a :- p(X).
                if self.rng.chance(0.5) {
                    let l = self.lit(&self.body_pool.clone());
                    vec![Stmt::Rule {
                        head: Head::Disj(vec![px]),
                        body: vec![BodyItem::Lit("d(X)".into()), BodyItem::Lit(l)],
                    }]
                } else {
                    let h = self.rng.pick(&self.head_pool).clone();
                    vec![Stmt::Rule { head: Head::Disj(vec![h]), body: vec![BodyItem::Lit(px)] }]
                }
            }
        }
    }

    fn rules(&mut self) -> Vec<Stmt> {
        let f = self.cfg.features.clone();
        let mut kinds: Vec<(u32, &str)> = Vec::new();
        if f.normal {
            kinds.push((5, "normal"));
        }
        if f.facts {
            kinds.push((1, "fact"));
        }
        if f.choice {
            kinds.push((3, "choice"));
        }
        if f.constraints {
            kinds.push((1, "constraint"));
        }
        if f.disjunction {
            kinds.push((2, "disjunction"));
        }
        if f.head_cycles {
            kinds.push((1, "head_cycle"));
        }
        if f.loops {
            kinds.push((1, "loop"));
        }
        if f.variables && !self.preds.is_empty() {
            kinds.push((3, "nonground"));
        }
        if kinds.is_empty() {
            kinds.push((1, "normal"));
        }
        let total: u32 = kinds.iter().map(|k| k.0).sum();
        let n = self.rng.range(self.cfg.min_rules as i64, self.cfg.max_rules as i64) as usize;
        let mut out = Vec::new();
        // A guess first, so that most programs have several answer sets: a free choice or an
        // even loop through negation.
        if f.choice && self.rng.chance(0.6) {
            let k = self.rng.range(2, 4) as usize;
            let elems =
                self.distinct_heads(k).into_iter().map(|atom| ChoiceElem { atom, cond: vec![] }).collect();
            out.push(Stmt::Rule { head: Head::Choice { lower: None, upper: None, elems }, body: vec![] });
        }
        if f.negation && self.rng.chance(0.4) {
            let ab = self.distinct_heads(2);
            if ab.len() == 2 {
                for (x, y) in [(0, 1), (1, 0)] {
                    let body = vec![BodyItem::Lit(format!("not {}", ab[y]))];
                    out.push(Stmt::Rule { head: Head::Disj(vec![ab[x].clone()]), body });
                }
            }
        }
        while out.len() < n {
            let mut r = self.rng.below(total as usize) as u32;
            let kind = kinds
                .iter()
                .find(|k| {
                    if r < k.0 {
                        true
                    } else {
                        r -= k.0;
                        false
                    }
                })
                .unwrap()
                .1;
            match kind {
                "normal" => {
                    let h = self.rng.pick(&self.head_pool).clone();
                    let mut body = self.body(self.cfg.max_body, std::slice::from_ref(&h));
                    if body.is_empty() {
                        let l = self.lit(&self.body_pool.clone());
                        body.push(BodyItem::Lit(l));
                    }
                    out.push(Stmt::Rule { head: Head::Disj(vec![h]), body });
                }
                "fact" => {
                    let h = self.rng.pick(&self.head_pool).clone();
                    out.push(Stmt::Rule { head: Head::Disj(vec![h]), body: vec![] });
                }
                "choice" => out.push(self.choice()),
                "constraint" => {
                    let mut body = self.body(self.cfg.max_body, &[]);
                    if body.is_empty() {
                        let l = self.lit(&self.body_pool.clone());
                        body.push(BodyItem::Lit(l));
                    }
                    out.push(Stmt::Rule { head: Head::Disj(vec![]), body });
                }
                "disjunction" => {
                    let k = self.rng.range(2, 3) as usize;
                    let atoms = self.distinct_heads(k);
                    let body = self.body(self.cfg.max_body.min(2), &atoms);
                    out.push(Stmt::Rule { head: Head::Disj(atoms), body });
                }
                "head_cycle" => {
                    // a ; b :- body.  a :- b.  b :- a[, lit].
                    let atoms = self.distinct_heads(2);
                    if atoms.len() < 2 {
                        continue;
                    }
                    let body = self.body(1, &[]);
                    out.push(Stmt::Rule { head: Head::Disj(atoms.clone()), body });
                    out.push(Stmt::Rule {
                        head: Head::Disj(vec![atoms[0].clone()]),
                        body: vec![BodyItem::Lit(atoms[1].clone())],
                    });
                    let mut body = vec![BodyItem::Lit(atoms[0].clone())];
                    if self.rng.chance(0.3) {
                        let l = self.lit(&self.body_pool.clone());
                        body.push(BodyItem::Lit(l));
                    }
                    out.push(Stmt::Rule { head: Head::Disj(vec![atoms[1].clone()]), body });
                }
                "loop" => {
                    // a1 :- a2.  a2 :- a3 ... ak :- a1, plus an entry a1 :- lit.
                    let k = self.rng.range(2, 3) as usize;
                    let atoms = self.distinct_heads(k);
                    if atoms.len() < 2 {
                        continue;
                    }
                    for i in 0..atoms.len() {
                        let mut body = vec![BodyItem::Lit(atoms[(i + 1) % atoms.len()].clone())];
                        if self.rng.chance(0.25) {
                            let l = self.lit(&self.body_pool.clone());
                            body.push(BodyItem::Lit(l));
                        }
                        out.push(Stmt::Rule { head: Head::Disj(vec![atoms[i].clone()]), body });
                    }
                    if self.rng.chance(0.7) {
                        let l = self.lit(&self.body_pool.clone());
                        let h = self.rng.pick(&atoms).clone();
                        out.push(Stmt::Rule { head: Head::Disj(vec![h]), body: vec![BodyItem::Lit(l)] });
                    }
                }
                _ => out.extend(self.nonground()),
            }
        }
        out
    }

    fn minimize(&mut self) -> Vec<Stmt> {
        let mut out = Vec::new();
        let mut pool = self.body_pool.clone();
        for p in &self.preds {
            pool.push(format!("{p}(1)"));
        }
        for _ in 0..self.rng.range(1, 2) {
            let mut elems = Vec::new();
            for _ in 0..self.rng.range(1, 4) {
                let weight = self.rng.range(-3, 3);
                let prio = self.rng.range(0, 2);
                let terms = vec![self.term()];
                let mut cond = vec![self.lit(&pool)];
                if self.rng.chance(0.2) {
                    cond.push(self.lit(&pool));
                }
                elems.push(MinElem { weight, prio, terms, cond });
            }
            if self.cfg.features.variables && !self.preds.is_empty() && self.rng.chance(0.3) {
                let p = self.rng.pick(&self.preds).clone();
                elems.push(MinElem {
                    weight: self.rng.range(-2, 2),
                    prio: self.rng.range(0, 2),
                    terms: vec!["X".into()],
                    cond: vec![format!("{p}(X)")],
                });
            }
            out.push(Stmt::Minimize { maximize: self.rng.chance(0.2), elems });
        }
        out
    }
}

/// Generates an `.lp` program from `seed`.
pub fn generate_lp(seed: u64, cfg: &Config) -> LpProgram {
    let mut rng = Rng::new(seed);
    let f = cfg.features.clone();
    let n_atoms = rng.range(3, cfg.max_atoms.max(3) as i64) as usize;
    let mut preds = Vec::new();
    let mut ground_preds = Vec::new();
    let mut n_props = n_atoms;
    if f.variables && n_atoms >= 6 {
        // d(1), d(2) and one or two predicates over them.
        let k = if n_atoms >= 9 && rng.chance(0.5) { 2 } else { 1 };
        for p in ["p", "q"].iter().take(k) {
            preds.push(p.to_string());
            ground_preds.push(format!("{p}(1)"));
            ground_preds.push(format!("{p}(2)"));
        }
        n_props = n_atoms - 2 - 2 * k;
    }
    let props: Vec<String> = (0..n_props).map(|i| ((b'a' + i as u8) as char).to_string()).collect();
    let mut externals = Vec::new();
    if f.externals && props.len() >= 3 {
        for _ in 0..rng.range(1, 2) {
            let a = rng.pick(&props).clone();
            if !externals.contains(&a) {
                externals.push(a);
            }
        }
    }
    let mut body_pool = props.clone();
    body_pool.extend(ground_preds.iter().cloned());
    let mut head_pool: Vec<String> = props.iter().filter(|a| !externals.contains(a)).cloned().collect();
    head_pool.extend(ground_preds.iter().cloned());
    let mut g = LpGen { rng, cfg, body_pool, head_pool, preds, next_term: 0 };
    let mut stmts = Vec::new();
    if !g.preds.is_empty() {
        stmts.push(Stmt::Rule { head: Head::Disj(vec!["d(1)".into()]), body: vec![] });
        stmts.push(Stmt::Rule { head: Head::Disj(vec!["d(2)".into()]), body: vec![] });
    }
    for a in &externals {
        let value = *g.rng.pick(&[None, Some("true"), Some("false"), Some("free"), Some("free")]);
        stmts.push(Stmt::External { atom: a.clone(), value });
    }
    stmts.extend(g.rules());
    if f.minimize {
        stmts.extend(g.minimize());
    }
    if f.project {
        if !g.preds.is_empty() && g.rng.chance(0.3) {
            let p = g.rng.pick(&g.preds).clone();
            stmts.push(Stmt::Project(format!("{p}/1")));
        }
        for _ in 0..g.rng.range(1, 3) {
            let a = g.rng.pick(&g.body_pool).clone();
            stmts.push(Stmt::Project(a));
        }
    }
    if f.edges {
        let pool = g.body_pool.clone();
        for _ in 0..g.rng.range(1, 5) {
            let (u, v) = (g.rng.range(1, 3), g.rng.range(1, 3));
            let cond = if g.rng.chance(0.15) { vec![] } else { vec![g.lit(&pool)] };
            stmts.push(Stmt::Edge { u, v, cond });
        }
    }
    if f.heuristics {
        let pool = g.body_pool.clone();
        for _ in 0..g.rng.range(1, 3) {
            let atom = g.rng.pick(&pool).clone();
            let cond = if g.rng.chance(0.5) { vec![] } else { vec![g.lit(&pool)] };
            let modifier = *g.rng.pick(&["level", "sign", "true", "false", "init", "factor"]);
            stmts.push(Stmt::Heuristic { atom, cond, value: g.rng.range(-1, 3), modifier });
        }
    }
    LpProgram { stmts }
}

impl LpProgram {
    /// What the program uses, for coverage statistics and regression file names.
    pub fn tags(&self) -> BTreeSet<&'static str> {
        let mut t = BTreeSet::new();
        let mut edges: Vec<(String, String)> = Vec::new();
        let mut disj_heads: Vec<Vec<String>> = Vec::new();
        let body_lits = |body: &[BodyItem], t: &mut BTreeSet<&'static str>| -> Vec<String> {
            let mut pos = Vec::new();
            for b in body {
                match b {
                    BodyItem::Lit(l) => {
                        let (p, a) = lit_atom(l);
                        if p {
                            pos.push(a.to_string());
                        } else {
                            t.insert("negation");
                        }
                        if l.contains("(X)") {
                            t.insert("variables");
                        }
                    }
                    BodyItem::Agg(g) => {
                        t.insert(if g.fun == AggFun::Count { "count" } else { "sum" });
                        if g.negated {
                            t.insert("negated-aggregate");
                        }
                        if g.upper.is_some() {
                            t.insert("aggregate-upper-bound");
                        }
                        for e in &g.elems {
                            if e.terms.iter().any(|x| x.starts_with('-')) {
                                t.insert("sum-negative-weight");
                            }
                            for l in &e.cond {
                                let (p, a) = lit_atom(l);
                                if p && !g.negated {
                                    pos.push(a.to_string());
                                } else {
                                    t.insert("negation");
                                }
                            }
                        }
                    }
                }
            }
            pos
        };
        for s in &self.stmts {
            match s {
                Stmt::Rule { head, body } => {
                    let pos = body_lits(body, &mut t);
                    let heads: Vec<String> = match head {
                        Head::Disj(a) if a.is_empty() => {
                            t.insert("constraint");
                            vec![]
                        }
                        Head::Disj(a) => {
                            if a.len() > 1 {
                                t.insert("disjunction");
                                disj_heads.push(a.clone());
                            } else if body.is_empty() {
                                t.insert("fact");
                            } else {
                                t.insert("normal");
                            }
                            a.clone()
                        }
                        Head::Choice { lower, upper, elems } => {
                            t.insert("choice");
                            if lower.is_some() || upper.is_some() {
                                t.insert("choice-bounds");
                            }
                            if elems.iter().any(|e| !e.cond.is_empty()) {
                                t.insert("conditional-choice");
                            }
                            elems.iter().map(|e| e.atom.clone()).collect()
                        }
                    };
                    if heads.iter().any(|h| h.contains("(X)")) {
                        t.insert("variables");
                    }
                    for b in body {
                        if let BodyItem::Agg(g) = b {
                            let mentions = g.elems.iter().flat_map(|e| e.cond.iter()).any(|l| {
                                let a = lit_atom(l).1;
                                heads.iter().any(|h| h == a)
                            });
                            if mentions {
                                t.insert(if matches!(head, Head::Choice { .. }) {
                                    "choice-aggregate-on-own-head"
                                } else {
                                    "aggregate-on-own-head"
                                });
                            }
                        }
                    }
                    for h in &heads {
                        for p in &pos {
                            edges.push((h.clone(), p.clone()));
                        }
                    }
                }
                Stmt::Minimize { maximize, elems } => {
                    t.insert(if *maximize { "maximize" } else { "minimize" });
                    if elems.iter().map(|e| e.prio).collect::<BTreeSet<_>>().len() > 1 {
                        t.insert("priorities");
                    }
                    if elems.iter().any(|e| e.weight < 0) {
                        t.insert("negative-weights");
                    }
                }
                Stmt::Project(_) => {
                    t.insert("project");
                }
                Stmt::External { .. } => {
                    t.insert("external");
                }
                Stmt::Edge { .. } => {
                    t.insert("edge");
                }
                Stmt::Heuristic { .. } => {
                    t.insert("heuristic");
                }
            }
        }
        // Positive loops and head cycles, over atom names (non-ground atoms as written).
        let scc = components(&edges);
        if edges.iter().any(|(h, b)| h == b || (scc.contains_key(h) && scc.get(h) == scc.get(b))) {
            t.insert("positive-loop");
        }
        if disj_heads.iter().any(|hs| {
            hs.iter()
                .enumerate()
                .any(|(i, a)| hs[i + 1..].iter().any(|b| scc.contains_key(a) && scc.get(a) == scc.get(b)))
        }) {
            t.insert("head-cycle");
        }
        t
    }

    /// Every program one step smaller: a statement, body item, aggregate element, literal,
    /// head atom or bound removed.
    pub fn shrink_candidates(&self) -> Vec<LpProgram> {
        let mut out = Vec::new();
        let with = |i: usize, s: Stmt| {
            let mut p = self.clone();
            p.stmts[i] = s;
            p
        };
        for (i, s) in self.stmts.iter().enumerate() {
            let mut p = self.clone();
            p.stmts.remove(i);
            out.push(p);
            match s {
                Stmt::Rule { head, body } => {
                    for j in 0..body.len() {
                        let mut b = body.clone();
                        b.remove(j);
                        out.push(with(i, Stmt::Rule { head: head.clone(), body: b }));
                        if let BodyItem::Agg(g) = &body[j] {
                            for g2 in shrink_agg(g) {
                                let mut b = body.clone();
                                b[j] = BodyItem::Agg(g2);
                                out.push(with(i, Stmt::Rule { head: head.clone(), body: b }));
                            }
                        }
                    }
                    match head {
                        Head::Disj(atoms) => {
                            for k in 0..atoms.len() {
                                let mut a = atoms.clone();
                                a.remove(k);
                                out.push(with(i, Stmt::Rule { head: Head::Disj(a), body: body.clone() }));
                            }
                        }
                        Head::Choice { lower, upper, elems } => {
                            for k in 0..elems.len() {
                                let mut e = elems.clone();
                                e.remove(k);
                                let h = Head::Choice { lower: *lower, upper: *upper, elems: e.clone() };
                                out.push(with(i, Stmt::Rule { head: h, body: body.clone() }));
                                if !elems[k].cond.is_empty() {
                                    let mut e = elems.clone();
                                    e[k].cond.clear();
                                    let h = Head::Choice { lower: *lower, upper: *upper, elems: e };
                                    out.push(with(i, Stmt::Rule { head: h, body: body.clone() }));
                                }
                            }
                            if lower.is_some() {
                                let h = Head::Choice { lower: None, upper: *upper, elems: elems.clone() };
                                out.push(with(i, Stmt::Rule { head: h, body: body.clone() }));
                            }
                            if upper.is_some() {
                                let h = Head::Choice { lower: *lower, upper: None, elems: elems.clone() };
                                out.push(with(i, Stmt::Rule { head: h, body: body.clone() }));
                            }
                        }
                    }
                }
                Stmt::Minimize { maximize, elems } => {
                    for k in 0..elems.len() {
                        let mut e = elems.clone();
                        e.remove(k);
                        out.push(with(i, Stmt::Minimize { maximize: *maximize, elems: e }));
                    }
                }
                Stmt::Project(_) | Stmt::External { .. } | Stmt::Edge { .. } | Stmt::Heuristic { .. } => {}
            }
        }
        out
    }
}

fn shrink_agg(g: &Agg) -> Vec<Agg> {
    let mut out = Vec::new();
    for k in 0..g.elems.len() {
        let mut h = g.clone();
        h.elems.remove(k);
        out.push(h);
        for c in 0..g.elems[k].cond.len() {
            if g.elems[k].cond.len() > 1 {
                let mut h = g.clone();
                h.elems[k].cond.remove(c);
                out.push(h);
            }
        }
    }
    if g.lower.is_some() {
        out.push(Agg { lower: None, ..g.clone() });
    }
    if g.upper.is_some() {
        out.push(Agg { upper: None, ..g.clone() });
    }
    if g.negated {
        out.push(Agg { negated: false, ..g.clone() });
    }
    out
}

/// Strongly connected components of a directed graph given by edges (Tarjan, recursive: the
/// graphs here have a handful of nodes). Returns the component id of each node.
fn components(edges: &[(String, String)]) -> BTreeMap<String, usize> {
    let mut adj: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (a, b) in edges {
        adj.entry(a).or_default().push(b);
        adj.entry(b).or_default();
    }
    struct St<'a> {
        adj: &'a BTreeMap<&'a str, Vec<&'a str>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        comp: BTreeMap<String, usize>,
        next: usize,
        ncomp: usize,
        sizes: Vec<usize>,
    }
    fn visit<'a>(s: &mut St<'a>, v: &'a str) {
        s.index.insert(v, s.next);
        s.low.insert(v, s.next);
        s.next += 1;
        s.stack.push(v);
        s.on.insert(v);
        for &w in &s.adj[v] {
            if !s.index.contains_key(w) {
                visit(s, w);
                let l = s.low[v].min(s.low[w]);
                s.low.insert(v, l);
            } else if s.on.contains(w) {
                let l = s.low[v].min(s.index[w]);
                s.low.insert(v, l);
            }
        }
        if s.low[v] == s.index[v] {
            let mut size = 0;
            loop {
                let w = s.stack.pop().unwrap();
                s.on.remove(w);
                s.comp.insert(w.to_string(), s.ncomp);
                size += 1;
                if w == v {
                    break;
                }
            }
            s.sizes.push(size);
            s.ncomp += 1;
        }
    }
    let mut s = St {
        adj: &adj,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        comp: BTreeMap::new(),
        next: 0,
        ncomp: 0,
        sizes: Vec::new(),
    };
    let nodes: Vec<&str> = adj.keys().copied().collect();
    for v in nodes {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    // Only components with more than one node count as shared.
    let sizes = s.sizes.clone();
    s.comp.into_iter().filter(|(_, c)| sizes[*c] > 1).collect()
}

// ---------------------------------------------------------------------------------------------
// raw aspif programs

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ABody {
    Normal(Vec<i32>),
    Weight { bound: i64, lits: Vec<(i32, i64)> },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AStmt {
    Rule {
        choice: bool,
        head: Vec<u32>,
        body: ABody,
    },
    Minimize {
        prio: i32,
        lits: Vec<(i32, i64)>,
    },
    Project(Vec<u32>),
    /// `5 a v`: v 0 free, 1 true, 2 false.
    External(u32, u8),
}

/// An aspif program over atoms `1..=atoms`, each shown as `x<N>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AspifProgram {
    pub atoms: u32,
    pub stmts: Vec<AStmt>,
}

impl fmt::Display for AspifProgram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "asp 1 0 0")?;
        for s in &self.stmts {
            match s {
                AStmt::Rule { choice, head, body } => {
                    write!(f, "1 {} {}", u8::from(*choice), head.len())?;
                    for h in head {
                        write!(f, " {h}")?;
                    }
                    match body {
                        ABody::Normal(l) => {
                            write!(f, " 0 {}", l.len())?;
                            for x in l {
                                write!(f, " {x}")?;
                            }
                        }
                        ABody::Weight { bound, lits } => {
                            write!(f, " 1 {bound} {}", lits.len())?;
                            for (l, w) in lits {
                                write!(f, " {l} {w}")?;
                            }
                        }
                    }
                    writeln!(f)?;
                }
                AStmt::Minimize { prio, lits } => {
                    write!(f, "2 {prio} {}", lits.len())?;
                    for (l, w) in lits {
                        write!(f, " {l} {w}")?;
                    }
                    writeln!(f)?;
                }
                AStmt::Project(a) => {
                    write!(f, "3 {}", a.len())?;
                    for x in a {
                        write!(f, " {x}")?;
                    }
                    writeln!(f)?;
                }
                AStmt::External(a, v) => writeln!(f, "5 {a} {v}")?,
            }
        }
        for a in 1..=self.atoms {
            let name = format!("x{a}");
            writeln!(f, "4 {} {name} 1 {a}", name.len())?;
        }
        writeln!(f, "0")
    }
}

/// Generates a raw aspif program from `seed`: shapes gringo does not write, above all choice
/// rules whose weight bodies mention their own heads, duplicate and complementary literals in
/// weight bodies, and bounds at or below zero.
pub fn generate_aspif(seed: u64, cfg: &Config) -> AspifProgram {
    let mut rng = Rng::new(seed ^ 0xA5A5_0000_0000_0001);
    let f = &cfg.features;
    let n = rng.range(2, cfg.max_atoms.clamp(2, 10) as i64) as u32;
    let atom = |rng: &mut Rng| rng.range(1, n as i64) as i32;
    let mut externals = BTreeSet::new();
    if f.externals && n >= 3 {
        externals.insert(atom(&mut rng) as u32);
    }
    // Externals stay out of heads: whether clasp then keeps the declaration depends on its
    // preprocessing (see the oracle's `supported_atoms`).
    let head_atom = |rng: &mut Rng| loop {
        let a = atom(rng) as u32;
        if !externals.contains(&a) {
            break a;
        }
    };
    let lit = |rng: &mut Rng| {
        let a = atom(rng);
        if f.negation && rng.chance(0.4) { -a } else { a }
    };
    let weighted = f.count || f.sum;
    let mut stmts = Vec::new();
    for &a in &externals {
        stmts.push(AStmt::External(a, *rng.pick(&[0u8, 0, 1, 2])));
    }
    if f.choice && rng.chance(0.6) {
        let mut head: Vec<u32> = (0..rng.range(2, 4)).map(|_| head_atom(&mut rng)).collect();
        head.sort_unstable();
        head.dedup();
        stmts.push(AStmt::Rule { choice: true, head, body: ABody::Normal(vec![]) });
    }
    let nrules = rng.range(cfg.min_rules as i64, cfg.max_rules.min(8) as i64);
    for _ in 0..nrules {
        let mut kinds = vec!["normal"];
        if f.choice {
            kinds.extend(["choice", "choice"]);
        }
        if f.disjunction {
            kinds.push("disjunction");
        }
        if f.constraints {
            kinds.push("constraint");
        }
        let kind = *rng.pick(&kinds);
        let (choice, head): (bool, Vec<u32>) = match kind {
            "choice" => (true, (0..rng.range(1, 3)).map(|_| head_atom(&mut rng)).collect()),
            "disjunction" => (false, (0..rng.range(2, 3)).map(|_| head_atom(&mut rng)).collect()),
            "constraint" => (false, vec![]),
            _ => (false, vec![head_atom(&mut rng)]),
        };
        let mut head = head;
        head.dedup();
        let k = rng.range(0, cfg.max_body as i64 + 1) as usize;
        let mut lits: Vec<i32> = (0..k).map(|_| lit(&mut rng)).collect();
        // Mention the rule's own heads (positively or negatively) in its body.
        if f.self_agg && !head.is_empty() && rng.chance(0.5) {
            let h = *rng.pick(&head) as i32;
            lits.push(if f.negation && rng.chance(0.5) { -h } else { h });
        }
        if f.loops && !head.is_empty() && rng.chance(0.2) {
            // A positive loop through this rule's head.
            let h = *rng.pick(&head);
            let other = head_atom(&mut rng);
            lits.push(other as i32);
            stmts.push(AStmt::Rule { choice: false, head: vec![other], body: ABody::Normal(vec![h as i32]) });
        }
        let body = if weighted && rng.chance(0.45) {
            let wl: Vec<(i32, i64)> =
                lits.iter().map(|&l| (l, if f.sum { rng.range(0, 3) } else { 1 })).collect();
            let total: i64 = wl.iter().map(|x| x.1).sum();
            ABody::Weight { bound: rng.range(-1, total + 1), lits: wl }
        } else {
            ABody::Normal(lits)
        };
        stmts.push(AStmt::Rule { choice, head, body });
    }
    if f.head_cycles && f.disjunction && n >= 2 {
        let a = head_atom(&mut rng);
        let b = head_atom(&mut rng);
        if a != b {
            stmts.push(AStmt::Rule { choice: false, head: vec![a, b], body: ABody::Normal(vec![]) });
            stmts.push(AStmt::Rule { choice: false, head: vec![a], body: ABody::Normal(vec![b as i32]) });
            stmts.push(AStmt::Rule { choice: false, head: vec![b], body: ABody::Normal(vec![a as i32]) });
        }
    }
    if f.minimize {
        for _ in 0..rng.range(1, 3) {
            let prio = rng.range(0, 2) as i32;
            let lits = (0..rng.range(1, 3)).map(|_| (lit(&mut rng), rng.range(-3, 3))).collect();
            stmts.push(AStmt::Minimize { prio, lits });
        }
    }
    if f.project {
        let atoms: BTreeSet<u32> = (0..rng.range(1, 3)).map(|_| atom(&mut rng) as u32).collect();
        stmts.push(AStmt::Project(atoms.into_iter().collect()));
    }
    AspifProgram { atoms: n, stmts }
}

impl AspifProgram {
    pub fn tags(&self) -> BTreeSet<&'static str> {
        let mut t = BTreeSet::new();
        t.insert("raw-aspif");
        for s in &self.stmts {
            match s {
                AStmt::Rule { choice, head, body } => {
                    let lits: Vec<i32> = match body {
                        ABody::Normal(l) => l.clone(),
                        ABody::Weight { lits, .. } => {
                            t.insert("weight-body");
                            lits.iter().map(|x| x.0).collect()
                        }
                    };
                    if lits.iter().any(|&l| l < 0) {
                        t.insert("negation");
                    }
                    if *choice {
                        t.insert("choice");
                    } else if head.len() > 1 {
                        t.insert("disjunction");
                    } else if head.is_empty() {
                        t.insert("constraint");
                    }
                    if lits.iter().any(|l| head.contains(&l.unsigned_abs())) {
                        t.insert(match (choice, body) {
                            (true, ABody::Weight { .. }) => "choice-aggregate-on-own-head",
                            (false, ABody::Weight { .. }) => "aggregate-on-own-head",
                            _ => "body-on-own-head",
                        });
                    }
                }
                AStmt::Minimize { lits, .. } => {
                    t.insert("minimize");
                    if lits.iter().any(|x| x.1 < 0) {
                        t.insert("negative-weights");
                    }
                }
                AStmt::Project(_) => {
                    t.insert("project");
                }
                AStmt::External(..) => {
                    t.insert("external");
                }
            }
        }
        let prios: BTreeSet<i32> = self
            .stmts
            .iter()
            .filter_map(|s| if let AStmt::Minimize { prio, .. } = s { Some(*prio) } else { None })
            .collect();
        if prios.len() > 1 {
            t.insert("priorities");
        }
        t
    }

    /// Every program one step smaller: a statement, literal or head atom removed, or a bound
    /// lowered.
    pub fn shrink_candidates(&self) -> Vec<AspifProgram> {
        let mut out = Vec::new();
        let used = self
            .stmts
            .iter()
            .flat_map(|s| match s {
                AStmt::Rule { head, body, .. } => {
                    let lits: Vec<i32> = match body {
                        ABody::Normal(l) => l.clone(),
                        ABody::Weight { lits, .. } => lits.iter().map(|x| x.0).collect(),
                    };
                    head.iter().copied().chain(lits.iter().map(|l| l.unsigned_abs())).collect::<Vec<u32>>()
                }
                AStmt::Minimize { lits, .. } => lits.iter().map(|x| x.0.unsigned_abs()).collect(),
                AStmt::Project(a) => a.clone(),
                AStmt::External(a, _) => vec![*a],
            })
            .max()
            .unwrap_or(0);
        if used < self.atoms {
            out.push(AspifProgram { atoms: used, stmts: self.stmts.clone() });
        }
        for (i, s) in self.stmts.iter().enumerate() {
            let mut p = self.clone();
            p.stmts.remove(i);
            out.push(p);
            let mut with = |s: AStmt| {
                let mut p = self.clone();
                p.stmts[i] = s;
                out.push(p);
            };
            match s {
                AStmt::Rule { choice, head, body } => {
                    for k in 0..head.len() {
                        let mut h = head.clone();
                        h.remove(k);
                        with(AStmt::Rule { choice: *choice, head: h, body: body.clone() });
                    }
                    match body {
                        ABody::Normal(l) => {
                            for k in 0..l.len() {
                                let mut l = l.clone();
                                l.remove(k);
                                with(AStmt::Rule {
                                    choice: *choice,
                                    head: head.clone(),
                                    body: ABody::Normal(l),
                                });
                            }
                        }
                        ABody::Weight { bound, lits } => {
                            for k in 0..lits.len() {
                                let mut l = lits.clone();
                                l.remove(k);
                                let b = ABody::Weight { bound: *bound, lits: l };
                                with(AStmt::Rule { choice: *choice, head: head.clone(), body: b });
                            }
                            if *bound > 0 {
                                let b = ABody::Weight { bound: bound - 1, lits: lits.clone() };
                                with(AStmt::Rule { choice: *choice, head: head.clone(), body: b });
                            }
                            if lits.iter().all(|x| x.1 == 1) && *bound as usize == lits.len() {
                                let b = ABody::Normal(lits.iter().map(|x| x.0).collect());
                                with(AStmt::Rule { choice: *choice, head: head.clone(), body: b });
                            }
                        }
                    }
                }
                AStmt::Minimize { prio, lits } => {
                    for k in 0..lits.len() {
                        let mut l = lits.clone();
                        l.remove(k);
                        with(AStmt::Minimize { prio: *prio, lits: l });
                    }
                }
                AStmt::Project(a) => {
                    for k in 0..a.len() {
                        let mut a = a.clone();
                        a.remove(k);
                        with(AStmt::Project(a));
                    }
                }
                AStmt::External(..) => {}
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_is_deterministic_and_respects_features() {
        let cfg = Config::default();
        assert_eq!(generate_lp(7, &cfg).to_string(), generate_lp(7, &cfg).to_string());
        assert_eq!(generate_aspif(7, &cfg).to_string(), generate_aspif(7, &cfg).to_string());
        let mut few = Config { features: Features::none(), ..Config::default() };
        few.features.normal = true;
        for seed in 0..200 {
            let t = generate_lp(seed, &few).tags();
            let allowed: BTreeSet<&str> = ["normal", "positive-loop"].into_iter().collect();
            assert!(t.is_subset(&allowed), "seed {seed}: {t:?}\n{}", generate_lp(seed, &few));
        }
    }

    #[test]
    fn all_features_show_up() {
        let cfg = Config::default();
        let mut seen = BTreeSet::new();
        for seed in 0..400 {
            seen.extend(generate_lp(seed, &cfg).tags());
        }
        for t in [
            "normal",
            "fact",
            "negation",
            "choice",
            "choice-bounds",
            "constraint",
            "count",
            "sum",
            "choice-aggregate-on-own-head",
            "disjunction",
            "head-cycle",
            "positive-loop",
            "minimize",
            "priorities",
            "negative-weights",
            "project",
            "external",
            "variables",
            "edge",
            "heuristic",
        ] {
            assert!(seen.contains(t), "feature {t} never generated");
        }
    }
}
