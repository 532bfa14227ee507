//! GPU tests: the CUDA engine gives exactly the expected answer sets on the conformance corpus
//! and the CPU engine's answer sets, counts and optima on our instances, under both learning
//! schemes. Without a GPU (or driver, or NVRTC) every test says so and passes without running.

mod support;

use std::sync::Arc;
use support::{answer_sets, conformance, counted, one_model_in_parallel, options_on};
use yasmin::engine::cuda::farm::tables::unsupported;
use yasmin::engine::cuda::{CudaEngine, SetupError};
use yasmin::input::read_program;
use yasmin::nogoods::complete;
use yasmin::solve::SolveOptions;
use yasmin::solve::config::{Backend, Decisions, GpuMode, GpuRounds, Heuristic, Learning, SearchOptions};
use yasmin::stop::StopToken;

/// Why the CUDA engine cannot run here, if it cannot.
fn unavailable() -> Option<String> {
    let p = read_program(b"asp 1 0 0\n1 1 1 1 0 0\n0\n").unwrap();
    let problem = Arc::new(complete(&p, &StopToken::default(), 0).unwrap());
    match CudaEngine::new(problem, &SearchOptions::default()) {
        Ok(_) => None,
        Err(SetupError::Device(why)) => Some(why),
        Err(e @ SetupError::Program(_)) => panic!("a program of one rule refused: {e}"),
    }
}

macro_rules! gpu_test {
    ($(#[$m:meta])* fn $name:ident() $body:block) => {
        $(#[$m])*
        #[test]
        fn $name() {
            if let Some(why) = unavailable() {
                eprintln!("skipping GPU test {}: {why}", stringify!($name));
                return;
            }
            $body
        }
    };
}

fn conformance_on_gpu(family: &str, learning: Learning, decisions: Decisions) {
    let mut failures = Vec::new();
    let mut opts = options_on(Backend::Cuda, learning, Heuristic::Activity);
    opts.search.decisions = decisions;
    let files = conformance(family);
    for (path, expected) in &files {
        let program = read_program(&std::fs::read(path).unwrap()).unwrap();
        let (outcome, got, _) = answer_sets(&program, &opts);
        if &got != expected || !outcome.exhausted {
            failures.push(format!(
                "{}: {} answer sets, expected {}",
                path.display(),
                got.len(),
                expected.len()
            ));
        }
    }
    eprintln!(
        "GPU {family} {learning:?} {decisions:?}: {}/{} programs agree",
        files.len() - failures.len(),
        files.len()
    );
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

gpu_test! { fn gpu_tight_res() { conformance_on_gpu("tight", Learning::Res, Decisions::Rules) } }
gpu_test! { fn gpu_tight_fwd() { conformance_on_gpu("tight", Learning::Fwd, Decisions::Rules) } }
gpu_test! { fn gpu_nontight_res() { conformance_on_gpu("nontight", Learning::Res, Decisions::Rules) } }
gpu_test! { fn gpu_nontight_fwd() { conformance_on_gpu("nontight", Learning::Fwd, Decisions::Rules) } }
gpu_test! { fn gpu_aggregates_res() { conformance_on_gpu("aggregates", Learning::Res, Decisions::Rules) } }
gpu_test! { fn gpu_aggregates_fwd() { conformance_on_gpu("aggregates", Learning::Fwd, Decisions::Rules) } }
gpu_test! { fn gpu_tight_vars_res() { conformance_on_gpu("tight", Learning::Res, Decisions::Vars) } }
gpu_test! { fn gpu_nontight_vars_fwd() { conformance_on_gpu("nontight", Learning::Fwd, Decisions::Vars) } }
gpu_test! { fn gpu_aggregates_vars_res() { conformance_on_gpu("aggregates", Learning::Res, Decisions::Vars) } }

gpu_test! {
    /// Four CUDA engines racing for one model (`--parallel-mode=4`), each on its own stream and
    /// a quarter of the multiprocessors: one of the expected answer sets, or a proof of none.
    fn gpu_one_model_by_four_searches() {
        let (failures, checked) = one_model_in_parallel(Backend::Cuda, 4, &["tight", "nontight", "aggregates"]);
        eprintln!("GPU parallel search: {}/{checked} programs agree", checked - failures.len());
        assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    }
}

gpu_test! {
    /// Three CUDA engines dividing the space (`--parallel-mode=3,split`, the guiding paths'
    /// literals decided by `assume`) and sharing nogoods: every expected answer set, once.
    fn gpu_split_mode_enumerates_every_answer_set_once() {
        let mut opts = options_on(Backend::Cuda, Learning::Res, Heuristic::Activity);
        opts.threads = 3;
        opts.split = true;
        let mut failures = Vec::new();
        let mut checked = 0;
        for (path, expected) in ["tight", "nontight"].iter().flat_map(|f| conformance(f)) {
            let program = read_program(&std::fs::read(&path).unwrap()).unwrap();
            if program.minimize().next().is_some() {
                continue;
            }
            checked += 1;
            let (outcome, got, _) = answer_sets(&program, &opts);
            if got != expected || !outcome.exhausted {
                failures.push(format!("{}: {} answer sets, expected {}", path.display(), got.len(), expected.len()));
            }
        }
        eprintln!("GPU split mode: {}/{checked} programs agree", checked - failures.len());
        assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    }
}

gpu_test! {
    /// A CUDA engine that fails mid-search (an injected device error, `engine/faulty.rs`): with
    /// `--backend=auto` the CPU engine takes over, given the blocking nogoods and bound, and every
    /// answer set comes once; a CUDA search that fails in a race drops out and another answers;
    /// with `--backend=cuda` alone it is an engine error.
    fn gpu_engine_failures_fall_back_or_drop_out() {
        use yasmin::solve::{Fault, SolveError, solve};
        let root = std::env::var_os("YASMIN_REPO").map(std::path::PathBuf::from);
        let dir = root.unwrap_or_else(|| env!("CARGO_MANIFEST_DIR").into()).join("instances");
        for name in ["queens.aspif", "tiling.aspif", "hamiltonian.aspif"] {
            let program = read_program(&std::fs::read(dir.join(name)).unwrap()).unwrap();
            let cpu = answer_sets(&program, &options_on(Backend::Cpu, Learning::Res, Heuristic::Activity));
            for after in [0, 5, 60, 400] {
                let mut opts = options_on(Backend::Auto, Learning::Res, Heuristic::Activity);
                opts.fault = Some(Fault { search: None, after });
                // Branch and bound, which runs on the device; optimization by cores runs on the
                // CPU engine only (tests/faults.rs).
                opts.opt_strategy = yasmin::solve::config::OptStrategy::Bb;
                let (o, models, _) = answer_sets(&program, &opts);
                // Branch and bound reports the models it improves on, which depend on the order of
                // the search: the optimum is what must agree there.
                let optimizing = program.minimize().next().is_some();
                if !optimizing {
                    assert_eq!(models, cpu.1, "{name} after {after}");
                }
                assert_eq!((o.costs, o.optimum_proven), (cpu.0.costs.clone(), cpu.0.optimum_proven), "{name}");
                // Without the fallback, a failure (one that comes before the search ends: the
                // CUDA engine does much in one operation) is an engine error.
                if after <= 5 {
                    opts.backend = Backend::Cuda;
                    let mut c = support::Collect::new(&program);
                    let r = solve(&program, &opts, &mut c);
                    assert!(matches!(r, Err(SolveError::Engine(_))), "{name} after {after}: {:?}", r.map(|o| o.models));
                }
            }
            if program.minimize().next().is_some() {
                continue;
            }
            let mut opts = options_on(Backend::Cuda, Learning::Res, Heuristic::Activity);
            // After one operation: it fails before it could answer (the CUDA engine does much in one).
            opts.fault = Some(Fault { search: Some(0), after: 1 });
            opts.threads = 3;
            opts.models = Some(1);
            let (o, models, _) = answer_sets(&program, &opts);
            assert!(models.len() == 1 && cpu.1.contains(&models[0]), "{name}: {models:?}");
            assert!(matches!(o.threads, Some((3, Some(w))) if w != 0), "{name}: {:?}", o.threads);
        }
    }
}

gpu_test! {
    /// Our instances (enumeration, non-tight, optimization, disjunction): same answer sets and
    /// optima as the CPU engine.
    fn gpu_matches_cpu_on_instances() {
        let root = std::env::var_os("YASMIN_REPO").map(std::path::PathBuf::from);
        let dir = root.unwrap_or_else(|| env!("CARGO_MANIFEST_DIR").into()).join("instances");
        let mut n = 0;
        for e in std::fs::read_dir(&dir).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_none_or(|x| x != "aspif") {
                continue;
            }
            let program = read_program(&std::fs::read(&path).unwrap()).unwrap();
            let (cpu, cpu_sets, cpu_costs) = answer_sets(&program, &options_on(Backend::Cpu, Learning::Res, Heuristic::Activity));
            for learning in [Learning::Res, Learning::Fwd] {
                let (gpu, gpu_sets, gpu_costs) = answer_sets(&program, &options_on(Backend::Cuda, learning, Heuristic::Activity));
                assert_eq!(gpu.engine, "cuda");
                if cpu.costs.is_some() {
                    assert_eq!(gpu.costs, cpu.costs, "{}: optimum differs ({learning:?})", path.display());
                    assert_eq!(gpu_costs.last(), cpu_costs.last(), "{}", path.display());
                } else {
                    assert_eq!(gpu_sets, cpu_sets, "{}: answer sets differ ({learning:?})", path.display());
                }
                n += 1;
            }
        }
        eprintln!("GPU and CPU agree on {n} instance runs");
        assert!(n >= 8);
    }
}

gpu_test! {
    /// A round that proposes more literals than block 0 keeps in shared memory (2,048): the
    /// choice of `a` forces 5,000 atoms at once, so the proposal list continues in global memory.
    /// Both answer sets, under both learning schemes and with the values in shared or global
    /// memory.
    fn gpu_wide_round_spills_proposals() {
        let n = 5000;
        let mut text = String::from("asp 1 0 0\n1 1 1 1 0 0\n");
        for i in 2..=n + 1 {
            text.push_str(&format!("1 0 1 {i} 0 1 1\n"));
        }
        // Every forced atom is false when a is: a constraint on the last one keeps the search
        // going through a conflict too (b_n without a is impossible anyway).
        text.push_str(&format!("1 0 0 0 2 {} -1\n", n + 1));
        text.push_str("4 1 a 1 1\n");
        text.push_str(&format!("4 2 b1 1 2\n4 2 bn 1 {}\n0\n", n + 1));
        assert_eq!(enumerates_as_cpu(&text), 2);
    }
}

/// Enumerates the aspif `text` on the CPU, then on the GPU under both learning schemes, with
/// block 0's values in shared memory (the default) and in global memory: the same answer sets
/// each time, the search exhausted. Returns how many there are.
fn enumerates_as_cpu(text: &str) -> usize {
    let program = read_program(text.as_bytes()).unwrap();
    let (_, cpu_sets, _) =
        answer_sets(&program, &options_on(Backend::Cpu, Learning::Res, Heuristic::Activity));
    for learning in [Learning::Res, Learning::Fwd] {
        for kib in [SearchOptions::default().gpu_shared_kib, 0] {
            let mut opts = options_on(Backend::Cuda, learning, Heuristic::Activity);
            opts.search.gpu_shared_kib = kib;
            let (gpu, gpu_sets, _) = answer_sets(&program, &opts);
            assert!(gpu.exhausted);
            assert_eq!(gpu_sets, cpu_sets, "{learning:?}, {kib} KiB");
        }
    }
    cpu_sets.len()
}

gpu_test! {
    /// Exactly one of 40 atoms, by pairwise constraints and one that needs at least one: the
    /// latter's nogood has 41 literals, so block 0 checks it once a round through its marks
    /// (`Tables::wide`), or, with its values in global memory, where its literals are. All 40
    /// answer sets, under both learning schemes, either way.
    fn gpu_wide_nogoods_checked_once_a_round() {
        let n = 40;
        let atoms: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
        let mut text = format!("asp 1 0 0\n1 1 {n} {} 0 0\n", atoms.join(" "));
        for i in 1..=n {
            for j in i + 1..=n {
                text.push_str(&format!("1 0 0 0 2 {i} {j}\n"));
            }
        }
        let negated: Vec<String> = (1..=n).map(|i| format!("-{i}")).collect();
        text.push_str(&format!("1 0 0 0 {n} {}\n", negated.join(" ")));
        for i in 1..=n {
            let name = format!("a{i}");
            text.push_str(&format!("4 {} {name} 1 {i}\n", name.len()));
        }
        text.push_str("0\n");
        assert_eq!(enumerates_as_cpu(&text), n);
    }
}

gpu_test! {
    /// At most one of 1,100 atoms, by a constraint on their count: choosing one makes the count's
    /// weight constraint force the other 1,099 false in one round, each with that constraint of
    /// 1,100 members as its reason. Under forward learning their dependency rows are each taken by
    /// a warp (deps_d), the round's literals dealt to the warps in turn, more of them than block 0
    /// has threads. All 1,101 answer sets, under both learning schemes, values in shared or global
    /// memory.
    fn gpu_long_reasons_in_a_wide_round() {
        let n = 1100;
        let atoms: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
        let weighted: Vec<String> = (1..=n).map(|i| format!("{i} 1")).collect();
        let mut text = format!("asp 1 0 0\n1 1 {n} {} 0 0\n", atoms.join(" "));
        text.push_str(&format!("1 0 0 1 2 {n} {}\n", weighted.join(" ")));
        for i in 1..=n {
            let name = format!("a{i}");
            text.push_str(&format!("4 {} {name} 1 {i}\n", name.len()));
        }
        text.push_str("0\n");
        assert_eq!(enumerates_as_cpu(&text), n + 1);
    }
}

/// Every answer set's full assignment (all solver variables), by CPU enumeration.
fn reference_models(problem: &std::sync::Arc<yasmin::nogoods::Problem>) -> Vec<Vec<bool>> {
    use yasmin::engine::Engine;
    use yasmin::engine::cpu::CpuEngine;
    let mut e = CpuEngine::new(std::sync::Arc::clone(problem), &SearchOptions::default());
    let mut out = Vec::new();
    loop {
        if !e.propagate().unwrap() {
            if !e.resolve_conflict().unwrap() {
                return out;
            }
            continue;
        }
        if e.decide().unwrap().is_some() {
            continue;
        }
        if e.complete().unwrap() == yasmin::engine::Completion::Total {
            out.push(e.var_values());
            let ng = e.decisions().unwrap();
            if !e.add_nogood(&ng).unwrap() {
                return out;
            }
        }
    }
}

gpu_test! {
    /// Every nogood the CUDA engine learns while enumerating is consistent with every answer set,
    /// those propagate_fix_k learns on its own included (an unbounded conflict budget).
    fn gpu_learned_nogoods_are_sound() {
        use yasmin::engine::Engine;
        use yasmin::engine::Completion;
        let root = std::env::var_os("YASMIN_REPO").map(std::path::PathBuf::from);
        let dir = root.unwrap_or_else(|| env!("CARGO_MANIFEST_DIR").into()).join("instances");
        for name in ["queens.aspif", "colouring.aspif", "hamiltonian.aspif"] {
            let program = read_program(&std::fs::read(dir.join(name)).unwrap()).unwrap();
            let problem = Arc::new(complete(&program, &StopToken::default(), 0).unwrap());
            let models = reference_models(&problem);
            for learning in [Learning::Res, Learning::Fwd] {
                let opts = SearchOptions { learning, ..SearchOptions::default() };
                let mut e = CudaEngine::new(Arc::clone(&problem), &opts).unwrap();
                let mut remaining = models.clone();
                e.set_reference(remaining.clone());
                let mut found = 0;
                loop {
                    e.set_conflict_budget(u64::MAX);
                    if !e.propagate().unwrap() {
                        if !e.resolve_conflict().unwrap() {
                            break;
                        }
                        continue;
                    }
                    if e.decide().unwrap().is_some() {
                        continue;
                    }
                    if e.complete().unwrap() == Completion::Total {
                        found += 1;
                        // The model found is blocked from now on: no longer a reference.
                        let m = e.var_values().unwrap();
                        assert!(remaining.contains(&m), "{name}: the model found is not an answer set");
                        remaining.retain(|x| x != &m);
                        e.set_reference(remaining.clone());
                        let ng = e.decisions().unwrap();
                        if !e.add_nogood(&ng).unwrap() {
                            break;
                        }
                    }
                }
                eprintln!("{name} {learning:?}: {found} of {} models", models.len());
                assert_eq!(found, models.len(), "{name} {learning:?}");
            }
        }
    }
}

#[path = "gen/mod.rs"]
mod r#gen;

gpu_test! {
    /// Differential check on random ground programs (the differential test's generator, in its
    /// aspif mode, so no grounder is needed on the GPU machine): the CUDA engine under both
    /// learning schemes gives the CPU engine's answer sets, and the same optimum. Odd seeds
    /// propagate with host-driven rounds, even ones with device-driven rounds (the default),
    /// block 0 keeping the values in shared memory (the default) or, for seeds 2 mod 4, in
    /// global memory (`--gpu-shared-kib=0`, what programs too large for shared memory get).
    /// Seeds 1 mod 3 decide on variables (`--decisions=vars`), the others on rules.
    fn gpu_matches_cpu_on_random_programs() {
        let n: u64 = std::env::var("YASMIN_GPU_DIFF_PROGRAMS").ok().and_then(|s| s.parse().ok()).unwrap_or(300);
        let cfg = r#gen::Config::default();
        let (mut compared, mut sets) = (0, 0);
        for seed in 0..n {
            let text = r#gen::generate_aspif(7_000_000 + seed, &cfg).to_string();
            let program = read_program(text.as_bytes()).unwrap();
            let cpu_opts = options_on(Backend::Cpu, Learning::Res, Heuristic::Activity);
            let (cpu, cpu_sets, _) = answer_sets(&program, &cpu_opts);
            let gpu_rounds = if seed % 2 == 0 { GpuRounds::Device } else { GpuRounds::Host };
            let shared_kib = if seed % 4 == 2 { 0 } else { SearchOptions::default().gpu_shared_kib };
            // Decisions by propagate_fix_k: none, one (the limit reached), or the default.
            let decisions = match seed % 8 {
                0 => 0,
                4 => 1,
                _ => SearchOptions::default().gpu_decisions,
            };
            // Conflicts analysed by propagate_fix_k (device-driven rounds, even seeds): none, one,
            // or the default.
            let conflicts = match seed % 6 {
                0 => 0,
                2 => 1,
                _ => SearchOptions::default().gpu_conflicts,
            };
            for learning in [Learning::Res, Learning::Fwd] {
                let mut opts = options_on(Backend::Cuda, learning, Heuristic::Activity);
                opts.search.gpu_rounds = gpu_rounds;
                opts.search.gpu_shared_kib = shared_kib;
                opts.search.gpu_decisions = decisions;
                opts.search.gpu_conflicts = conflicts;
                opts.search.decisions = if seed % 3 == 1 { Decisions::Vars } else { Decisions::Rules };
                let (gpu, gpu_sets, _) = answer_sets(&program, &opts);
                let how = format!(
                    "{learning:?} {:?} {gpu_rounds:?} {shared_kib} KiB, {decisions} decisions, {conflicts} conflicts",
                    opts.search.decisions
                );
                if cpu.costs.is_some() {
                    assert_eq!(gpu.costs, cpu.costs, "seed {seed} {how}: optimum differs\n{text}");
                } else {
                    assert_eq!(gpu_sets, cpu_sets, "seed {seed} {how}: answer sets differ\n{text}");
                }
                compared += 1;
                sets += gpu_sets.len();
            }
        }
        eprintln!("GPU and CPU agree on {compared} runs over {n} random programs ({sets} answer sets)");
    }
}

/// Runs the farm under `opts` on every program of the corpus it takes, without optimization: each run
/// must give one of the expected answer sets, or prove there is none, from the farm. Adds to
/// `checked` and `failures` (each named with `label`).
fn farm_on_the_corpus(opts: &SolveOptions, label: &str, checked: &mut usize, failures: &mut Vec<String>) {
    for (path, program, expected) in farm_corpus() {
        *checked += 1;
        let (outcome, got, _) = answer_sets(&program, opts);
        let right = match got.as_slice() {
            [] => expected.is_empty() && outcome.exhausted,
            [m] => expected.contains(m) && !outcome.exhausted,
            _ => false,
        };
        if !right || outcome.engine != "cuda-farm" {
            failures.push(format!("{} ({label}): {got:?} from {}", path.display(), outcome.engine));
        }
    }
}

/// The programs the farm takes (tight ones, and those its unfounded-set check covers), without
/// optimization, each with its path and expected answer sets.
fn farm_corpus() -> Vec<(std::path::PathBuf, yasmin::program::Program, Vec<String>)> {
    let mut out = Vec::new();
    for (path, expected) in ["tight", "aggregates", "nontight"].iter().flat_map(|f| conformance(f)) {
        let program = read_program(&std::fs::read(&path).unwrap()).unwrap();
        let problem = complete(&program, &StopToken::default(), 0).unwrap();
        if program.minimize().next().is_none() && unsupported(&problem).is_none() {
            out.push((path, program, expected));
        }
    }
    out
}

/// A farm of `searches` searches answering one model.
fn farm_options(searches: u32) -> SolveOptions {
    let mut opts = options_on(Backend::Cuda, Learning::Res, Heuristic::Activity);
    opts.models = Some(1);
    (opts.gpu_mode, opts.gpu_searches) = (GpuMode::Farm, searches);
    opts
}

gpu_test! {
    /// `--gpu-mode=auto` (the default): the farm takes one model and every model of a program
    /// without head cycles, the grid-wide engine an optimization and a program with head cycles;
    /// the answer sets are the CPU engine's. With `--backend=auto` (the default) the CPU engine
    /// takes what the farm does not and one search's enumeration, and for one model one CPU search
    /// races the farm.
    fn gpu_auto_gives_the_farm_what_it_takes() {
        let file = |name: &str| std::fs::read(support::repo().join("instances").join(name)).unwrap();
        let cycle = support::HEAD_CYCLE.as_bytes().to_vec();
        // (name, program, models, searches, the farm with cuda, auto's engine: "race" for either).
        for (name, input, models, threads, farm, auto) in [
            ("queens", file("queens.aspif"), 1, 1, true, "race"),
            ("queens", file("queens.aspif"), 0, 1, true, "cpu"),
            ("queens", file("queens.aspif"), 0, 2, true, "split"),
            ("disjunction", file("disjunction.aspif"), 0, 1, true, "cpu"),
            ("tiling", file("tiling.aspif"), 0, 1, false, "cpu"),
            ("head cycle", cycle, 0, 1, false, "cpu"),
        ] {
            let program = read_program(&input).unwrap();
            let mut opts = options_on(Backend::Cuda, Learning::Res, Heuristic::Activity);
            (opts.gpu_mode, opts.models, opts.threads) = (GpuMode::Auto, Some(models), threads);
            let what = format!("{name} -n {models} -t {threads}");
            let (outcome, got, costs) = answer_sets(&program, &opts);
            if threads == 1 {
                assert_eq!(outcome.engine == "cuda-farm", farm, "{what}: {}", outcome.engine);
            }
            opts.backend = Backend::Auto;
            let o = answer_sets(&program, &opts).0;
            match auto {
                // A race of one CPU search (number 0) and the farm (after it).
                "race" => assert!(
                    o.threads.is_some() && ["cpu", "cuda-farm"].contains(&o.engine),
                    "{what}, auto: {} {:?}",
                    o.engine,
                    o.threads
                ),
                // Two CPU searches dividing the space, the farm taking parts once open.
                "split" => assert!(o.threads.is_some_and(|(n, _)| n >= 2), "{what}, auto: {:?}", o.threads),
                engine => assert_eq!(o.engine, engine, "{what}, auto"),
            }
            opts.backend = Backend::Cpu;
            let (_, cpu, cpu_costs) = answer_sets(&program, &opts);
            if !cpu_costs.is_empty() {
                // Branch and bound reports the models it improves on: the optimum must agree.
                assert_eq!(costs.iter().min(), cpu_costs.iter().min(), "{what}");
            } else if models == 0 {
                assert_eq!(got, cpu, "{what}");
            } else {
                assert_eq!(got.len(), 1, "{what}");
            }
        }
    }
}

gpu_test! {
    /// The search farm (`--gpu-mode=farm`): on every program of the corpus it takes, without optimization,
    /// one of the expected answer sets from one of its searches, or a proof of none; with and
    /// without the exchange, with few searches and many.
    fn gpu_farm_answers_the_corpus() {
        let (mut checked, mut failures) = (0, Vec::new());
        for (searches, share) in [(1, false), (64, true), (2000, true)] {
            let mut opts = farm_options(searches);
            if !share {
                opts.distribute = None;
            }
            farm_on_the_corpus(&opts, &format!("{searches} searches"), &mut checked, &mut failures);
        }
        eprintln!("GPU farm: {}/{checked} runs agree", checked - failures.len());
        assert!(checked > 100 && failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    }
}

gpu_test! {
    /// The farm racing CPU searches (`-t 4 --gpu-mode=farm`), sharing nogoods with them through the
    /// host: on every program of the corpus it takes, without optimization, one of its answer sets or
    /// a proof of none, from either side (the farm, set up while the CPU searches search, counted
    /// after the four where it joined in time); and from the farm where every CPU search fails.
    fn gpu_farm_races_cpu_searches_on_the_corpus() {
        let (mut checked, mut failures, mut by_farm) = (0, Vec::new(), 0);
        for (share, cpu_fails) in [(true, false), (false, false), (true, true)] {
            let mut opts = farm_options(64);
            opts.threads = 4;
            if !share {
                opts.distribute = None;
            }
            if cpu_fails {
                opts.fault = Some(yasmin::solve::Fault { search: None, after: 0 });
            }
            for (path, program, expected) in farm_corpus() {
                checked += 1;
                let (outcome, got, _) = answer_sets(&program, &opts);
                let right = match got.as_slice() {
                    [] => expected.is_empty() && outcome.exhausted,
                    [m] => expected.contains(m) && !outcome.exhausted,
                    _ => false,
                };
                let (threads, winner) = outcome.threads.unwrap_or_default();
                let farm = outcome.engine == "cuda-farm";
                by_farm += usize::from(farm);
                let counted = if cpu_fails {
                    farm && threads == 4 + 64 && winner.is_some_and(|w| w >= 4)
                } else {
                    [4, 4 + 64].contains(&threads) && (farm || outcome.engine == "cpu")
                };
                if !right || !counted {
                    failures.push(format!(
                        "{} (share {share}, CPU fails {cpu_fails}): {got:?} from {}, {threads} threads, winner {winner:?}",
                        path.display(),
                        outcome.engine
                    ));
                }
            }
        }
        eprintln!("GPU farm beside CPU searches: {}/{checked} runs agree, {by_farm} answered by the farm", checked - failures.len());
        assert!(checked > 100 && by_farm > 0 && failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    }
}

gpu_test! {
    /// Enumeration by the search farm (`-n 0`): on every program of the corpus it takes, without
    /// optimization, every answer set once, from the farm's searches on cubes; with few searches
    /// and many, and with two farms on device 0 as if it were two devices; and their number where
    /// the report keeps none (`-q`: the farm checks and counts them).
    fn gpu_farm_enumerates_the_corpus() {
        let (mut checked, mut failures) = (0, Vec::new());
        for (searches, devices) in [(2, vec![0]), (64, vec![0]), (2000, vec![0]), (64, vec![0, 0])] {
            let mut opts = farm_options(searches);
            opts.models = Some(0);
            opts.gpu_devices = devices.clone();
            for (path, program, expected) in farm_corpus() {
                checked += 1;
                let (outcome, got, _) = answer_sets(&program, &opts);
                if got != expected || !outcome.exhausted || outcome.engine != "cuda-farm" {
                    failures.push(format!(
                        "{} ({searches} searches on {devices:?}): {} answer sets, expected {}, from {}",
                        path.display(),
                        got.len(),
                        expected.len(),
                        outcome.engine
                    ));
                }
                // Counted only, as with -q: the models checked but not kept.
                let only = counted(&program, &opts);
                if only.models != expected.len() as u64 || !only.exhausted || only.engine != "cuda-farm" {
                    failures.push(format!(
                        "{} ({searches} searches on {devices:?}), counted: {} answer sets, expected {}, from {}",
                        path.display(),
                        only.models,
                        expected.len(),
                        only.engine
                    ));
                }
            }
        }
        eprintln!("GPU farm enumeration: {}/{checked} runs agree", checked - failures.len());
        assert!(checked > 200 && failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    }
}

gpu_test! {
    /// `-t 2 -n 0` with the farm (`--gpu-mode=auto`): two CPU searches divide the space and the
    /// farm takes parts of it once open (`portfolio/farm_member.rs`); every model once, counted
    /// (2^22 of a choice of 22 atoms, which two searches take long enough to enumerate for the
    /// farm to join) and kept (2^14).
    fn gpu_farm_takes_parts_beside_cpu_searches() {
        let choice = |n: u32| {
            let atoms: Vec<String> = (1..=n).map(|a| a.to_string()).collect();
            let shows: String = (1..=n).map(|a| format!("4 {} a{a} 1 {a}\n", 1 + a.to_string().len())).collect();
            let text = format!("asp 1 0 0\n1 1 {n} {} 0 0\n{shows}0\n", atoms.join(" "));
            read_program(text.as_bytes()).unwrap()
        };
        let mut opts = options_on(Backend::Auto, Learning::Res, Heuristic::Activity);
        (opts.gpu_mode, opts.models, opts.threads, opts.split) = (GpuMode::Auto, Some(0), 2, true);
        let o = counted(&choice(22), &opts);
        assert!(o.exhausted && o.models == 1 << 22, "{} models", o.models);
        let (searches, _) = o.threads.expect("a parallel run");
        assert!(searches > 2, "the farm took no part: {searches} searches");
        let (o, got, _) = answer_sets(&choice(14), &opts);
        let mut distinct = got.clone();
        distinct.dedup();
        assert!(o.exhausted && got.len() == 1 << 14 && distinct.len() == got.len(), "{} models", got.len());
        eprintln!("the farm beside two CPU searches: {searches} searches in all");
    }
}

gpu_test! {
    /// Farms on several devices (issue #31): two on device 0 as if they were two devices, and one
    /// on each device where there are several; competing and dividing the space into cubes, with
    /// the exchange relayed through the host. Every program of the corpus it takes, without
    /// optimization: one of its answer sets, or a proof of none.
    fn gpu_farms_on_several_devices_answer_the_corpus() {
        let mut lists = vec![vec![0, 0]];
        let count = yasmin::engine::cuda::device_count().unwrap_or(1);
        if count > 1 {
            lists.push((0..count).collect());
        }
        let (mut checked, mut failures) = (0, Vec::new());
        for devices in lists {
            for split in [false, true] {
                let mut opts = farm_options(64);
                opts.gpu_devices = devices.clone();
                opts.split = split;
                let label = format!("devices {devices:?}, split {split}");
                farm_on_the_corpus(&opts, &label, &mut checked, &mut failures);
            }
        }
        eprintln!("GPU farms on several devices: {}/{checked} runs agree", checked - failures.len());
        assert!(checked > 200 && failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    }
}
