//! The options of the search itself (what the engines see: learning, decisions, heuristics,
//! restarts, deletion, the GPU's tuning), declared once with their help, and their mapping onto
//! the library's [`SearchOptions`].

use super::values::*;
use clap::Args;
use yasmin::solve::config::{
    Decisions, Deletion, GpuRounds, Heuristic, LbdUpdate, Learning, LookKind, Lookahead, RandomDecisions,
    Schedule, SearchOptions, SignDef, Strengthen, StrengthenAntes,
};

/// Options of the search itself (what the engines see), mapped onto [`SearchOptions`].
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Learning scheme: res (1-UIP resolution) or fwd (forward learning from decision bitmaps).
    #[arg(long = "learning", default_value_t = SearchOptions::default().learning, value_parser = named::<Learning>())]
    pub learning: Learning,

    /// How applicable rules (or, with --decisions=vars, variables) are ranked for decisions:
    /// activity (VSIDS-style, of the variables in recent conflicts), occurrence (in nogoods), jw
    /// (Jeroslow-Wang: occurrences weighted by 2^-length).
    /// berkmin (BerkMin's, CPU engine: a variable of the newest learned nogood not yet satisfied,
    /// of the last 512, the most active first; deciding on variables).
    /// clasp's names are taken too: Vsids[,N] is activity with its decay N/100 (default 95);
    /// Domain[,N] honours #heuristic statements (CPU engine); Berkmin[,N] is berkmin (N other
    /// than 512 with a warning); Unit decides every time by lookahead (--lookahead's kind, atom
    /// by default; the CPU engine), deciding on variables; Vmtf decides by activity and None by
    /// occurrence, with a warning.
    #[arg(long = "heuristic", value_name = "HEURISTIC", default_value = "activity", value_parser = parse_heuristic)]
    pub heuristic: Nearest<(Heuristic, Option<f64>, bool)>,

    /// What a decision may assign: rules (the ASP computation of the paper: only an applicable
    /// rule, by making its body true or, for `not q` in it, q false) or vars (any unassigned
    /// variable, the best ranked, with --sign-def's value unless --save-progress keeps the value
    /// it had last, as clasp decides); mixed (the CPU engine): an applicable rule as with rules,
    /// or a variable that no rule decision assigns (an atom neither a choice head nor under `not`
    /// in a rule's body, or a constraint's body), made false unless --save-progress keeps its
    /// last value; alternate (the CPU engine): rules, mixed, rules and vars by turns, from one
    /// restart to another, each turn a span of effort (counted, not timed) of some 50 ms at first
    /// and twice as long after each round; auto (the default): vars where the run optimizes a
    /// #minimize or the program is not tight, alternate otherwise, then saving progress
    /// and updating LBDs as clasp's tweety (--save-progress, --update-lbd; rules on the CUDA
    /// engine, which saves no progress).
    #[arg(long = "decisions", default_value_t = SearchOptions::default().decisions, value_parser = named::<Decisions>())]
    pub decisions: Decisions,

    /// With --decisions=vars (and mixed, for the variables no rule decision assigns): a variable
    /// is decided with the value it had before it was last unassigned (progress saving), where it
    /// had one; as clasp's --save-progress=N, the values are saved by backjumps over more than
    /// N levels (0, the default N: every backjump). Saved on every backjump where
    /// --decisions=auto alternates (as clasp's tweety saves), else not
    #[arg(long = "save-progress", value_name = "N", num_args = 0..=1, require_equals = true, default_missing_value = "0", value_parser = clap::value_parser!(u32))]
    pub save_progress: Option<u32>,

    /// With --decisions=vars (and in alternate's turns on variables): the value a decision gives
    /// a variable, as clasp's --sign-def: asp
    /// (rule bodies of two literals or more true, and atoms equivalent to one, as `h` where its
    /// only rule is `h :- a, b`; other atoms false, a body of one atom with them), pos (true), neg
    /// (false), rnd (pseudo-random, from --seed; each search of a parallel run its own sequence).
    #[arg(long = "sign-def", default_value_t = SearchOptions::default().sign_def, value_parser = named::<SignDef>())]
    pub sign_def: SignDef,

    /// As clasp's --init-moms: the activities start from MOMS scores (a variable whose literals
    /// each imply many others through binary nogoods first), as clasp's tweety, instead of the
    /// variables' occurrences in the nogoods (--no-init-moms) (the CPU engine)
    #[arg(long = "init-moms", overrides_with = "no_init_moms")]
    pub init_moms_flag: bool,
    #[arg(long = "no-init-moms", hide = true, overrides_with = "init_moms_flag")]
    pub no_init_moms: bool,

    /// As clasp's --rand-freq=P: each decision is, with probability P, of a variable drawn at
    /// random among those yet to be decided (with the value it would get), else the heuristic's;
    /// the draws come from --seed, each search of a parallel run its own (the CPU engine; not with
    /// the domain heuristic, whose levels come first). 0, the default: none.
    #[arg(long = "rand-freq", value_name = "P", default_value_t = 0.0, value_parser = parse_rand_freq)]
    pub rand_freq: f64,

    /// Acyclicity constraints (#edge): 1 (the default) also makes false the edges that would
    /// close a cycle (clasp's backward inference), 0 only finds the cycles of true edges. The
    /// CUDA engine checks each total assignment instead.
    #[arg(long = "acyc-prop", value_name = "0|1", num_args = 0..=1, require_equals = true, default_missing_value = "1", value_parser = clap::value_parser!(u8).range(0..=1))]
    pub acyc_prop: Option<u8>,

    /// Restart policy: luby,N (Luby sequence times N conflicts), geom,N,F (N, N*F, ...),
    /// dynamic,N,K (Glucose's: restart when the average LBD of the last N learned nogoods, times
    /// K, exceeds the average of all; CPU engine), or no; clasp's L,N  x,N,F  +,N,M (N + M*i)
    /// F,N (every N)  D,N,K and 0 too; a last ,LIM of L, x and + starts the sequence over after
    /// LIM restarts, one longer each time (of D: clasp adjusts K every LIM conflicts, yasmin does
    /// not, with a warning).
    #[arg(short = 'r', long = "restarts", value_name = "SCHEDULE", default_value = "luby,100", value_parser = parse_restarts)]
    pub restarts: Nearest<Schedule>,

    /// Deletion of learned nogoods: lbd, tiered (by LBD, sparing the nogoods that took part in a
    /// conflict since the last deletion; of LBD up to 6, since the last two), activity, or no (the
    /// CUDA engine keeps no activities or uses of nogoods: activity and tiered delete by LBD
    /// there); clasp's basic, sort, ipSort and ipHeap[,...] delete by LBD, with a warning.
    #[arg(short = 'd', long = "deletion", value_name = "lbd|tiered|activity|no", default_value = "lbd", value_parser = parse_deletion)]
    pub deletion: Nearest<Deletion>,

    /// When learned nogoods are deleted, in conflicts, as a schedule of --restarts' forms (clasp's
    /// --del-cfl): +,2000,300 deletes after 2,000 conflicts, then 2,300 more, 2,600, ...;
    /// +,2000,100,20 (clasp's tweety) every 2,000 + 100*i, i from 0 to 19, then from 0 to 20, ...;
    /// 0: never. Default: +,2000,300; +,300,50 where several models are enumerated (-n 0 or
    /// -n N without optimization), since an enumeration never returns to the parts of the space
    /// it has exhausted.
    #[arg(long = "del-cfl", value_name = "SCHEDULE", value_parser = parse_del_cfl)]
    pub del_cfl: Option<Schedule>,

    /// How the LBD of a learned nogood follows the conflicts whose analysis it takes part in, as
    /// clasp's --update-lbd (the CPU engine): no; less (its distinct levels counted again, taken
    /// where lower), glucose (where lower by two or more), pseudo (that count plus one, where
    /// lower); a last ,N (0 to 127) spares a nogood so lowered to N or below at the next deletion.
    /// Default: less where --decisions=auto alternates (tight programs, nothing to optimize, as
    /// clasp's tweety), else no
    #[arg(long = "update-lbd", value_name = "MODE[,N]|no", value_parser = parse_update_lbd)]
    pub update_lbd: Option<(LbdUpdate, u32)>,

    /// How conflict analysis strengthens a learned nogood, as clasp's --strengthen (the CPU
    /// engine): no; local (a literal whose reason's other literals are all in the nogood goes);
    /// recursive (the default: one that every chain of reasons back from it ties to the nogood
    /// goes, MiniSat's minimization). A TYPE limits the reasons followed: all (the default),
    /// short (of at most three literals) or binary (0, 1, 2); a last yes|no is clasp's bumping of
    /// those reasons, which yasmin does either way.
    #[arg(long = "strengthen", value_name = "MODE[,TYPE][,BUMP]|no", default_value = "recursive", value_parser = parse_strengthen)]
    pub strengthen: Nearest<(Strengthen, StrengthenAntes)>,

    /// Whether conflict analysis then shrinks each learned nogood (yasmin's own, as CaDiCaL's
    /// --shrink; the CPU engine): the literals of one lower decision level give way to a literal
    /// of that level they all follow from, where the reasons on the way name nothing else outside
    /// the nogood. Shorter nogoods, of the same levels. Default: yes where several models are
    /// enumerated without optimization (a search that goes through the whole space gains from
    /// cheaper propagation), else no
    #[arg(long = "shrink", value_name = "yes|no", num_args = 0..=1, require_equals = true, default_missing_value = "yes", value_parser = clap::builder::BoolishValueParser::new())]
    pub shrink: Option<bool>,

    /// Failed-literal detection, as clasp's --lookahead=TYPE[,N] (the CPU engine, with 1-UIP
    /// learning): at a propagation fixpoint each unassigned atom (atom), rule body (body) or both
    /// (hybrid) is tested both ways; a value whose propagation conflicts is learned from, and the
    /// decision is the variable whose weaker value propagates most. After N fixpoints (0 or none:
    /// never) the heuristic decides again for good. `--lookahead` alone is atom; no (the default):
    /// off.
    #[arg(long = "lookahead", value_name = "TYPE[,N]|no", num_args = 0..=1, require_equals = true, default_missing_value = "atom", value_parser = parse_lookahead)]
    pub lookahead: Option<LookaheadArg>,

    /// The domain heuristic's modification of atoms by default, as clasp's --dom-mod=MOD[,PICK]
    /// (with --heuristic=Domain, on the CPU engine): each atom of the classes PICK (all: every
    /// atom; or a list of scc: on a positive cycle, hcc: of a component with a head cycle, disj:
    /// in a disjunctive head there, opt: the #minimize literals, show: the shown atoms) that no
    /// #heuristic statement names is modified as by a statement of kind MOD (level, pos, true,
    /// neg, false, init, factor). no (the default): none.
    #[arg(long = "dom-mod", value_name = "MOD[,PICK]|no", default_value = "no", value_parser = parse_dom_mod)]
    pub dom_mod: DomModArg,

    /// Threads per block for the CUDA engine's kernels.
    #[arg(long = "tpb", default_value_t = SearchOptions::default().tpb)]
    pub tpb: u32,

    /// Who drives the CUDA engine's propagation rounds: device (one cooperative launch runs the
    /// rounds to the fixpoint, grid-wide barriers between their steps) or host (a launch per step
    /// and a read-back per round). device falls back to host where cooperative launch is missing.
    #[arg(long = "gpu-rounds", default_value_t = SearchOptions::default().gpu_rounds, value_parser = named::<GpuRounds>())]
    pub gpu_rounds: GpuRounds,

    /// Blocks per multiprocessor for device-driven rounds (at most what fits at once): more
    /// threads for the sweeps of learned nogoods, but every grid barrier waits for every block.
    #[arg(long = "gpu-blocks-per-sm", default_value_t = SearchOptions::default().gpu_blocks_per_sm, value_parser = clap::value_parser!(u32).range(1..=32))]
    pub gpu_blocks_per_sm: u32,

    /// Threads per block for device-driven rounds (1024, 512, 256 or 128; less where that does
    /// not fit): block 0 runs the input nogoods' rounds alone, a warp per frontier literal, with a
    /// barrier over the whole block at each step.
    #[arg(long = "gpu-block-threads", default_value_t = SearchOptions::default().gpu_block_threads, value_parser = block_threads)]
    pub gpu_block_threads: u32,

    /// Shared memory (KiB) block 0 may take for device-driven rounds: the values (two bits per
    /// variable) and the round's proposals of the input nogoods' rounds stay on the
    /// multiprocessor. 0, or a program whose values do not fit, keeps them in global memory.
    #[arg(long = "gpu-shared-kib", default_value_t = SearchOptions::default().gpu_shared_kib, value_parser = clap::value_parser!(u32).range(0..=227))]
    pub gpu_shared_kib: u32,

    /// Decisions device-driven rounds may make on their own before returning to the host: at a
    /// fixpoint with an applicable rule the kernel takes the ranked decision and propagates on,
    /// saving a launch and a wait per decision. Tight programs only (the host checks unfounded
    /// sets at every fixpoint of the others); 0 returns at every fixpoint.
    #[arg(long = "gpu-decisions", default_value_t = SearchOptions::default().gpu_decisions, value_parser = clap::value_parser!(u32).range(0..=8))]
    pub gpu_decisions: u32,

    /// Conflicts device-driven rounds may analyse on their own before returning one to the host:
    /// block 0 learns (1-UIP or forward, as --learning says), backjumps and asserts while the other
    /// blocks wait, and propagation goes on, saving the analysis' launch and a return to the host
    /// per conflict. Never more than are left before the next restart or deletion. Tight programs
    /// only; 0 returns at every conflict.
    #[arg(long = "gpu-conflicts", default_value_t = SearchOptions::default().gpu_conflicts, value_parser = clap::value_parser!(u32).range(0..=8))]
    pub gpu_conflicts: u32,
}

impl SearchArgs {
    /// What the options take but cannot honour exactly, in clasp's warning words.
    pub fn warnings(&self) -> Vec<String> {
        let mut w: Vec<String> = [
            &self.heuristic.warning,
            &self.restarts.warning,
            &self.deletion.warning,
            &self.strengthen.warning,
        ]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
        let decisions = self.options().decisions;
        if self.sign_def != SignDef::Asp && matches!(decisions, Decisions::Rules | Decisions::Mixed) {
            w.push(format!(
                "--sign-def={}: decisions on rules (--decisions={decisions}) give each rule's value, and mixed ones make other variables false; the sign applies to --decisions=vars and to alternate's turns on variables",
                self.sign_def
            ));
        }
        if self.dom_mod.0.is_some() && self.heuristic.value.0 != Heuristic::Domain {
            w.push("--dom-mod: only the domain heuristic (--heuristic=Domain) takes it".into());
        }
        w
    }

    /// The search's options (a single search's: no perturbation, the whole GPU).
    pub fn options(&self) -> SearchOptions {
        SearchOptions {
            learning: self.learning,
            heuristic: self.heuristic.value.0,
            decay: self.heuristic.value.1.unwrap_or(SearchOptions::default().decay),
            // The domain, BerkMin and Unit heuristics decide on variables, as clasp does.
            decisions: if matches!(self.heuristic.value.0, Heuristic::Domain | Heuristic::Berkmin)
                || self.heuristic.value.2
            {
                Decisions::Vars
            } else {
                self.decisions
            },
            save_progress: self.save_progress,
            sign_def: self.sign_def,
            init_moms: if self.init_moms_flag {
                true
            } else if self.no_init_moms {
                false
            } else {
                SearchOptions::default().init_moms
            },
            random: RandomDecisions { freq: self.rand_freq, seed: 0 },
            restarts: self.restarts.value,
            deletion: self.deletion.value,
            del_cfl: self.del_cfl,
            update_lbd: self.update_lbd,
            strengthen: self.strengthen.value,
            shrink: self.shrink,
            lookahead: match (self.lookahead.and_then(|l| l.0), self.heuristic.value.2) {
                // Unit: every decision by lookahead, of the kind given (atom by default).
                (l, true) => Some(Lookahead { kind: l.map_or(LookKind::Atom, |l| l.kind), limit: 0 }),
                (l, false) => l,
            },
            dom_mod: self.dom_mod.0,
            acyc_prop: self.acyc_prop.map_or(SearchOptions::default().acyc_prop, |v| v == 1),
            tpb: self.tpb,
            gpu_rounds: self.gpu_rounds,
            gpu_blocks_per_sm: self.gpu_blocks_per_sm,
            gpu_block_threads: self.gpu_block_threads,
            gpu_shared_kib: self.gpu_shared_kib,
            gpu_decisions: self.gpu_decisions,
            gpu_conflicts: self.gpu_conflicts,
            ..SearchOptions::default()
        }
    }
}
