//! What a solve is asked to do, as the library takes it: the task ([`SolveOptions`]: models,
//! optimization and enumeration modes, projection, searches, limits) and the search's own options
//! ([`SearchOptions`]), with their defaults. The library knows nothing of how it is invoked: the
//! binary maps its arguments onto these types, and Rust code fills them in directly.
//!
//! ```
//! use yasmin::input::read_program;
//! use yasmin::solve::config::{Learning, SearchOptions, SolveOptions};
//! use yasmin::solve::{ModelEvent, Report, solve};
//!
//! /// Counts the models it is given.
//! struct Count(u64);
//! impl Report for Count {
//!     fn model(&mut self, _: &ModelEvent<'_>) -> std::io::Result<()> {
//!         self.0 += 1;
//!         Ok(())
//!     }
//! }
//!
//! // {a; b}. (aspif: one choice rule over atoms 1 and 2)
//! let program = read_program(b"asp 1 0 0\n1 1 2 1 2 0 0\n0\n").unwrap();
//! let opts = SolveOptions {
//!     models: Some(0),
//!     search: SearchOptions { learning: Learning::Fwd, ..SearchOptions::default() },
//!     ..SolveOptions::default()
//! };
//! let mut count = Count(0);
//! let outcome = solve(&program, &opts, &mut count).unwrap();
//! assert_eq!((count.0, outcome.models, outcome.exhausted), (4, 4, true));
//! ```

use crate::stop::StopToken;

mod schedule;
mod values;
pub use schedule::{DEL_CFL, ENUM_DEL_CFL, Restarts, Schedule};
pub use values::*;

/// The options of one search, what the engines see; [`Default`] gives yasmin's defaults (those
/// the binary starts from).
#[derive(Clone, Debug)]
pub struct SearchOptions {
    pub learning: Learning,
    pub heuristic: Heuristic,
    /// How much the activities of the variables not in recent conflicts keep at each conflict
    /// (clasp's `Vsids,N`: N/100), for the activity and domain heuristics.
    pub decay: f64,
    pub decisions: Decisions,
    /// With [`Decisions::Vars`] (and [`Decisions::Mixed`], for the variables no rule decision
    /// assigns): a variable is decided with the value it had before it was last unassigned by a
    /// backjump over more than N levels (`Some(N)`, clasp's `--save-progress=N`),
    /// where it had one; `None`: never, except where [`Decisions::Auto`] alternates
    /// ([`SearchOptions::resolve_decisions`]: every backjump).
    pub save_progress: Option<u32>,
    /// With [`Decisions::Vars`]: the value a decision gives a variable that has no saved one.
    pub sign_def: SignDef,
    /// The activities' first values (the CPU engine): clasp's MOMS scores
    /// ([`crate::engine::scores::moms_scores`], clasp's `--init-moms`), or the variables'
    /// occurrences.
    pub init_moms: bool,
    /// clasp's `--rand-freq`: the share of decisions taken at random (CPU engine).
    pub random: RandomDecisions,
    pub restarts: Schedule,
    pub deletion: Deletion,
    /// When learned nogoods are deleted (clasp's `--del-cfl`): a schedule of conflict counts. A
    /// dynamic one has none: the search then deletes on [`DEL_CFL`], with a warning. `None`: by
    /// the task ([`DEL_CFL`], or [`ENUM_DEL_CFL`] where several models are enumerated; `solve`
    /// decides).
    pub del_cfl: Option<Schedule>,
    /// How learned nogoods' LBDs follow the analyses they take part in (the CPU engine; clasp's
    /// `--update-lbd=MODE[,N]`), and the LBD (N) at or below which a nogood so updated is spared
    /// by the next deletion. `None`: by the task ([`SearchOptions::resolve_decisions`]: `less` where
    /// [`Decisions::Auto`] alternates, else none); [`SearchOptions::lbd_update`] reads it.
    pub update_lbd: Option<(LbdUpdate, u32)>,
    /// How conflict analysis strengthens the nogoods it learns (the CPU engine; clasp's
    /// `--strengthen=MODE[,TYPE]`).
    pub strengthen: (Strengthen, StrengthenAntes),
    /// Whether conflict analysis shrinks each learned nogood after strengthening it (the CPU
    /// engine; `engine/cpu/shrink.rs`: a lower level's literals replaced by the level's UIP).
    /// `None`: by the task (on where several models are enumerated; `solve` decides);
    /// [`SearchOptions::shrinks`] reads it.
    pub shrink: Option<bool>,
    /// Acyclicity (`#edge`): the CPU engine also makes false the edges that would close a cycle
    /// (clasp's backward inference, `--acyc-prop=1`), besides finding the cycles of true edges.
    pub acyc_prop: bool,
    /// Threads per block of the CUDA engine's kernels.
    pub tpb: u32,
    pub gpu_rounds: GpuRounds,
    /// Blocks per multiprocessor of device-driven rounds.
    pub gpu_blocks_per_sm: u32,
    /// Threads per block of device-driven rounds (1024, 512, 256 or 128).
    pub gpu_block_threads: u32,
    /// Shared memory (KiB) block 0 of device-driven rounds may take.
    pub gpu_shared_kib: u32,
    /// Decisions device-driven rounds may make before they return to the host (0 to 8).
    pub gpu_decisions: u32,
    /// Conflicts device-driven rounds may analyse before they return one to the host (0 to 8).
    pub gpu_conflicts: u32,
    /// The key of the perturbation of the initial scores (0: none; `engine/scores.rs`): set for
    /// the searches of a parallel run.
    pub perturb: u64,
    /// How many engines share the GPU (the searches of a parallel run); a CUDA engine's grid
    /// takes this share of the multiprocessors.
    pub gpu_share: u32,
    /// The CUDA device a CUDA engine runs on (its ordinal; a parallel run deals its searches
    /// out over [`SolveOptions::gpu_devices`]).
    pub gpu_device: u32,
    /// Which learned nogoods the search gives the other searches of a parallel run (`None`: a
    /// single search, none).
    pub share: Option<Distribute>,
    /// `--lookahead`: failed-literal detection and lookahead decisions (`None`: off).
    pub lookahead: Option<Lookahead>,
    /// `--dom-mod`: the domain heuristic's modification of atoms by default (`None`: none).
    pub dom_mod: Option<DomMod>,
}

/// clasp's `--distribute`: the learned nogoods a search shares, units and binaries always, the
/// others when their LBD and length are at most these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Distribute {
    pub lbd: u32,
    pub size: u32,
}

impl Distribute {
    /// clasp's default: LBD at most 4, any length (capped, so that one long nogood does not
    /// cost every search a scan).
    pub const DEFAULT: Distribute = Distribute { lbd: 4, size: 64 };

    pub fn passes(&self, len: usize, lbd: u32) -> bool {
        len <= 2 || (lbd <= self.lbd && len <= self.size as usize)
    }
}

impl SearchOptions {
    /// The decisions resolved for the task ([`Decisions::resolve`]); where `auto` alternates,
    /// also clasp tweety's progress saving (every backjump) and LBD updates (`less`), unless
    /// `--save-progress` and `--update-lbd` were given. On the shuffled copies of
    /// `../shared/bench` (BENCHMARKS.md, "On shuffled copies") alternating so solves 92 of 168
    /// against 90 without, planning Visit-all 12 of 12 against 8 and HanoiTower 6 against 5; by
    /// variables, on non-tight programs, the LBD updates lose four of planning Labyrinth's 12.
    pub fn resolve_decisions(&mut self, optimizing: bool, tight: bool) {
        let auto = self.decisions == Decisions::Auto;
        self.decisions = self.decisions.resolve(optimizing, tight);
        if auto && self.decisions == Decisions::Alternate {
            self.save_progress.get_or_insert(0);
            self.update_lbd.get_or_insert((LbdUpdate::Less, 0));
        }
    }

    /// `--shrink` as the search follows it: where the task left it (`None`), off.
    pub fn shrinks(&self) -> bool {
        self.shrink.unwrap_or(false)
    }

    /// `--update-lbd` as the search follows it: where the task left it (`None`), no updates.
    pub fn lbd_update(&self) -> (LbdUpdate, u32) {
        self.update_lbd.unwrap_or((LbdUpdate::No, 0))
    }

    /// What was asked of this search that the CUDA engines (the grid-wide engine and the search
    /// farm) do not honour, each as `--backend=cuda` warns of it; `--backend=auto` gives a run
    /// that asks for any of it to the CPU engine (`solve::auto::resolve`). Read as given, before
    /// the task resolves the options.
    pub fn cuda_ignores(&self) -> Vec<String> {
        let decisions = self.decisions;
        [
            (self.heuristic == Heuristic::Berkmin)
                .then(|| "--heuristic=berkmin: the CUDA engine ranks by activity (the CPU engine by BerkMin's rule)".into()),
            (self.heuristic == Heuristic::Domain).then(|| {
                "--heuristic=Domain: the CUDA engine does not honour #heuristic statements (the CPU engine does)".into()
            }),
            matches!(decisions, Decisions::Alternate | Decisions::Mixed).then(|| {
                format!("--decisions={decisions}: the CUDA engine decides on rules (the CPU engine as asked)")
            }),
            self.lookahead.is_some().then(|| {
                "--lookahead (and --heuristic=Unit): the CUDA engine has no lookahead (the CPU engine has)".into()
            }),
            (self.random.freq > 0.0)
                .then(|| "--rand-freq: the CUDA engine makes no random decisions (the CPU engine does)".into()),
            self.save_progress.is_some().then(|| {
                "--save-progress: the CUDA engine decides with --sign-def's value (the CPU engine saves progress)".into()
            }),
            self.init_moms.then(|| {
                "--init-moms: the CUDA engine's activities start from occurrences (the CPU engine's from MOMS scores)".into()
            }),
            (self.shrink == Some(true))
                .then(|| "--shrink: the CUDA engine learns its nogoods unshrunk (the CPU engine shrinks them)".into()),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            learning: Learning::Res,
            heuristic: Heuristic::Activity,
            decay: 0.95,
            decisions: Decisions::Auto,
            save_progress: None,
            sign_def: SignDef::Asp,
            init_moms: false,
            random: RandomDecisions::default(),
            restarts: Restarts::Luby(100).into(),
            deletion: Deletion::Lbd,
            del_cfl: None,
            update_lbd: None,
            strengthen: (Strengthen::Recursive, StrengthenAntes::All),
            shrink: None,
            acyc_prop: true,
            tpb: 256,
            gpu_rounds: GpuRounds::Device,
            gpu_blocks_per_sm: 1,
            gpu_block_threads: 1024,
            gpu_shared_kib: 96,
            gpu_decisions: 8,
            gpu_conflicts: 8,
            perturb: 0,
            gpu_share: 1,
            gpu_device: 0,
            share: None,
            lookahead: None,
            dom_mod: None,
        }
    }
}

/// A test hook: the engines of the searches `search` (all when `None`) fail after `after`
/// operations, as on a device error (`engine/faulty.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    pub search: Option<u32>,
    pub after: u64,
}

/// Where enumerated models are verified (`--verify-thread`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerifyThread {
    /// In the thread of the search that found them.
    Never,
    /// In threads of their own where the machine has a core for each search and each checker.
    WhereCores,
    /// In threads of their own, however many cores there are.
    Always,
}

impl VerifyThread {
    /// Whether checks go aside where searches and checkers take `cores` cores in all.
    pub fn aside(self, cores: usize) -> bool {
        match self {
            VerifyThread::Never => false,
            VerifyThread::Always => true,
            VerifyThread::WhereCores => std::thread::available_parallelism().is_ok_and(|n| n.get() >= cores),
        }
    }
}

/// What a solve is asked for; [`Default`] is clasp's default task (one model, or an optimum)
/// on the CPU engine, with no limit.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Models to compute (0 for all); `None` for clasp's default: 1, or all when optimizing.
    pub models: Option<u64>,
    pub opt_mode: OptMode,
    pub opt_strategy: OptStrategy,
    pub enum_mode: EnumMode,
    /// Projective enumeration; `None`: off.
    pub project: Option<ProjectMode>,
    pub backend: Backend,
    /// clasp's `--eq=N`: rounds of substitution of the completion's equivalent literals
    /// (`nogoods/equivalences.rs`; 0: none, `u32::MAX`: to a fixpoint), for the CPU engine.
    pub equivalences: u32,
    /// clasp's `--trans-ext`: which weight and cardinality constraints the completion translates
    /// into nogoods (`nogoods/translation.rs`).
    pub extended_rules: crate::nogoods::ExtendedRules,
    /// `--pair-at-most-one`: whether an at-most-one of few terms becomes binary nogoods
    /// (`nogoods/translation.rs`); where the task left it (`None`), off
    /// ([`SolveOptions::pairs_at_most_ones`]).
    pub pair_at_most_one: Option<bool>,
    /// `--symmetry`: whether the program's symmetries are broken, where the task allows it
    /// ([`SolveOptions::breaks_symmetries`]).
    pub symmetry: Symmetry,
    /// clasp's `--sat-prepro`: variable elimination and subsumption on the nogoods, where the
    /// task allows it (`solve/sat_prepro.rs`); `None`: off.
    pub sat_prepro: Option<crate::nogoods::SatPrepro>,
    pub search: SearchOptions,
    /// The run's time limit and signals: every loop of the solve polls it.
    pub stop: StopToken,
    /// Searches of a parallel run (1: a single search), and the seed of their perturbations.
    pub threads: u32,
    /// Whether they divide the search space (clasp's `split`) rather than compete.
    pub split: bool,
    pub seed: u64,
    /// The parallel run's searches' configurations, one a search (cycled when there are fewer);
    /// empty: the default portfolio built from `search` (`solve/configurations.rs`).
    pub portfolio: Vec<SearchOptions>,
    /// The options of `search` that the user set, which the default portfolio's searches keep.
    pub pinned: super::configurations::Pinned,
    /// `--configuration=many`: the default portfolio also where the searches divide the space to
    /// enumerate it (else each takes `search` there: `configurations::portfolio`).
    pub many: bool,
    /// Whether the searches of a parallel run share learned nogoods (and how).
    pub distribute: Option<Distribute>,
    /// How the GPU searches (with a backend other than the CPU's): `Auto` resolves, in
    /// [`solve`](super::solve), to `Grid` where the farm does not take the task, and stays `Auto`
    /// where it does, which then means the farm, with the grid-wide engine where the farm cannot
    /// run; see [`SolveOptions::farm`].
    pub gpu_mode: GpuMode,
    /// The GPU search farm's searches (0: as many as the device's multiprocessors take by default).
    pub gpu_searches: u32,
    /// The CUDA devices the GPU searches run on (ordinals; empty: every device there is): the
    /// searches of a parallel run are dealt out over them, and the search farm runs one farm on
    /// each.
    pub gpu_devices: Vec<u32>,
    /// clasp's `--opt-mode=MODE,BOUND...`: an initial bound on the costs, highest priority
    /// first (levels not given are unbounded): only models costing at most this (compared
    /// lexicographically) are looked for.
    pub opt_bound: Option<Vec<i64>>,
    /// Where the searches and the driver count their progress, for a progress line (`None`:
    /// nowhere).
    pub progress: Option<std::sync::Arc<super::progress::Progress>>,
    /// Whether models are verified in threads of their own while the searches go on: one search
    /// enumerating many models (`solve/pipeline.rs`), and each search of split mode counting them
    /// (`portfolio/checks_aside.rs`).
    pub verify_thread: VerifyThread,
    /// Tests only: engines that fail mid-search.
    #[doc(hidden)]
    pub fault: Option<Fault>,
}

impl SolveOptions {
    /// Whether the run minimizes `program`'s costs: it has a `#minimize` and `--opt-mode` is not
    /// `ignore`.
    pub fn optimizes(&self, program: &crate::program::Program) -> bool {
        program.minimize().next().is_some() && self.opt_mode != OptMode::Ignore
    }

    /// `--pair-at-most-one` as the completion follows it: where the task left it (`None`), off.
    pub fn pairs_at_most_ones(&self) -> bool {
        self.pair_at_most_one.unwrap_or(false)
    }

    /// Whether more than one model is asked for (`-n 0`, or `-n N` with N > 1).
    pub fn several_models(&self) -> bool {
        self.models.is_some_and(|k| k != 1)
    }

    /// Whether the program's symmetries are broken: `--symmetry=lex`, for a task that any answer
    /// set of an orbit serves: one model, or an optimum (`optimizing`: the program minimizes; its
    /// symmetries keep the costs); not an enumeration, projection or consequences.
    pub fn breaks_symmetries(&self, optimizing: bool) -> bool {
        let one = match self.opt_mode {
            OptMode::Opt if optimizing => true,
            OptMode::Opt | OptMode::Ignore => !self.several_models(),
            OptMode::OptN | OptMode::Enum => false,
        };
        self.symmetry == Symmetry::Lex
            && one
            && self.project.is_none()
            && matches!(self.enum_mode, EnumMode::Auto | EnumMode::Bt | EnumMode::Record)
    }

    /// The engine of the searches the driver makes: the backend's, but the CPU engine's for the
    /// N searches of `-t N` with the search farm (`--gpu-mode=farm`), which race beside it, or
    /// search alone where it declines the task; and with `--backend=auto` wherever the farm is
    /// on, for the search that runs where it declines the program or cannot run (one search of
    /// the grid-wide engine is slower than one of the CPU engine).
    pub fn search_backend(&self) -> Backend {
        let beside_farm = self.threads > 1 || self.backend == Backend::Auto;
        if self.farm().is_some() && beside_farm { Backend::Cpu } else { self.backend }
    }

    /// The GPU search farm's searches (`solve/farm/`; 0: as many as the device's multiprocessors
    /// take), where it runs: `--gpu-mode=farm`, or auto where the GPU searches; `None`: off.
    pub fn farm(&self) -> Option<u32> {
        let on = match self.gpu_mode {
            GpuMode::Farm => true,
            GpuMode::Auto => self.backend != Backend::Cpu,
            GpuMode::Grid => false,
        };
        on.then_some(self.gpu_searches)
    }

    /// Whether the farm was asked for by name (`--gpu-mode=farm`): then what it declines is said
    /// with a warning, and a device that cannot take it is an error with `--backend=cuda`; chosen
    /// by auto, it gives way to the grid-wide engine quietly.
    pub fn farm_asked(&self) -> bool {
        self.gpu_mode == GpuMode::Farm
    }
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            models: None,
            opt_mode: OptMode::Opt,
            opt_strategy: OptStrategy::Auto,
            enum_mode: EnumMode::Auto,
            project: None,
            backend: Backend::Auto,
            equivalences: crate::nogoods::DEFAULT_EQ_ROUNDS,
            extended_rules: crate::nogoods::ExtendedRules::default(),
            pair_at_most_one: None,
            symmetry: Symmetry::No,
            sat_prepro: None,
            search: SearchOptions::default(),
            stop: StopToken::default(),
            threads: 1,
            split: false,
            seed: 1,
            portfolio: Vec::new(),
            pinned: Default::default(),
            many: false,
            distribute: Some(Distribute::DEFAULT),
            gpu_mode: GpuMode::Auto,
            gpu_searches: 0,
            gpu_devices: Vec::new(),
            opt_bound: None,
            progress: None,
            verify_thread: VerifyThread::WhereCores,
            fault: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where `auto` alternates, progress is saved and LBDs updated unless the options were given;
    /// elsewhere, and where the decisions were given, nothing is added.
    #[test]
    fn alternating_by_default_saves_progress_and_updates_lbds() {
        let resolved = |o: SearchOptions, optimizing, tight| {
            let mut o = o;
            o.resolve_decisions(optimizing, tight);
            (o.decisions, o.save_progress, o.update_lbd)
        };
        let d = SearchOptions::default;
        let less = Some((LbdUpdate::Less, 0));
        assert_eq!(resolved(d(), false, true), (Decisions::Alternate, Some(0), less));
        assert_eq!(resolved(d(), true, true), (Decisions::Vars, None, None));
        assert_eq!(resolved(d(), false, false), (Decisions::Vars, None, None));
        let given = SearchOptions { save_progress: Some(9), update_lbd: Some((LbdUpdate::No, 0)), ..d() };
        assert_eq!(resolved(given, false, true), (Decisions::Alternate, Some(9), Some((LbdUpdate::No, 0))));
        let alternate = SearchOptions { decisions: Decisions::Alternate, ..d() };
        assert_eq!(resolved(alternate, false, true), (Decisions::Alternate, None, None));
        assert_eq!(d().lbd_update(), (LbdUpdate::No, 0), "left to the task: none");
    }

    #[test]
    fn lbd_updates_follow_clasp_modes() {
        let modes = [LbdUpdate::No, LbdUpdate::Less, LbdUpdate::Glucose, LbdUpdate::Pseudo];
        let of = |old, new| modes.map(|m| m.updated(old, new));
        assert_eq!(of(6, 5), [None, Some(5), None, None]);
        assert_eq!(of(6, 4), [None, Some(4), Some(4), Some(5)]);
        assert_eq!(of(6, 6), [None; 4]);
    }

    #[test]
    fn names_read_back() {
        for &l in Heuristic::ALL {
            assert_eq!(l.name().parse::<Heuristic>(), Ok(l));
        }
        assert_eq!("optN".parse::<OptMode>(), Ok(OptMode::OptN));
        assert!("fast".parse::<Learning>().unwrap_err().contains("res, fwd"));
    }

    #[test]
    fn auto_decides_on_variables_where_the_run_optimizes_or_the_program_has_loops() {
        use Decisions::{Alternate, Auto, Rules, Vars};
        assert_eq!(Auto.resolve(true, true), Vars);
        assert_eq!(Auto.resolve(false, true), Alternate);
        assert_eq!(Auto.resolve(false, false), Vars);
        assert_eq!((Rules.resolve(true, false), Vars.resolve(false, true)), (Rules, Vars));
        assert_eq!(SearchOptions::default().decisions, Auto);
    }

    #[test]
    fn restart_policies() {
        assert_eq!("luby,50".parse::<Restarts>(), Ok(Restarts::Luby(50)));
        assert_eq!("geom,10,2".parse::<Restarts>(), Ok(Restarts::Geometric(10, 2.0)));
        assert_eq!("no".parse::<Restarts>(), Ok(Restarts::No));
        assert!("luby,0".parse::<Restarts>().is_err());
        assert!("fast".parse::<Restarts>().is_err());
        for r in [Restarts::Luby(7), Restarts::Geometric(3, 1.5), Restarts::No] {
            assert_eq!(r.to_string().parse::<Restarts>(), Ok(r));
        }
    }
}
