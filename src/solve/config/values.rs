//! The named values of the options (engines, learning, heuristics, decisions, signs, deletion,
//! strengthening, optimization and enumeration modes, ...), each with clasp's names where clasp
//! has the option, and the small option types built from them (lookahead, domain modifiers,
//! random decisions).

/// Declares an enumeration of named values: the enum, its values' names (clasp's, where clasp
/// has the option), `name()`, `Display` and `FromStr` (which lists the names on an error).
macro_rules! named {
    ($(#[$m:meta])* pub enum $t:ident { $($(#[$vm:meta])* $v:ident = $n:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $t { $($(#[$vm])* $v),+ }

        impl $t {
            /// Every value, in declaration order.
            pub const ALL: &'static [$t] = &[$($t::$v),+];
            /// The names, in declaration order.
            pub const NAMES: &'static [&'static str] = &[$($n),+];

            pub fn name(self) -> &'static str {
                match self { $($t::$v => $n),+ }
            }
        }

        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl std::str::FromStr for $t {
            type Err = String;
            /// Any case, as clasp reads its values (`RES`, `optn`).
            fn from_str(s: &str) -> Result<Self, String> {
                match s {
                    $(_ if s.eq_ignore_ascii_case($n) => Ok($t::$v),)+
                    _ => Err(format!("'{s}': expected one of {}", $t::NAMES.join(", "))),
                }
            }
        }
    };
}

named! {
    /// Which engine runs the search: the CPU's, the GPU's, or the GPU's where there is one (and
    /// the CPU's when it fails).
    pub enum Backend { Auto = "auto", Cpu = "cpu", Cuda = "cuda" }
}

named! {
    /// How a conflict is learned from: 1-UIP resolution, or forward learning from decision-level
    /// bitmaps (the paper's).
    pub enum Learning { Res = "res", Fwd = "fwd" }
}

named! {
    /// How decision candidates are ranked.
    pub enum Heuristic {
        /// VSIDS-style activity of the variables in recent conflicts.
        Activity = "activity",
        /// Number of occurrences in nogoods.
        Occurrence = "occurrence",
        /// Jeroslow-Wang: occurrences weighted by 2^-length.
        JeroslowWang = "jw",
        /// Activity, steered by the program's `#heuristic` statements (clasp's Domain; the CPU
        /// engine, deciding on variables).
        Domain = "domain",
        /// BerkMin's (clasp's Berkmin,512): a free variable of the newest learned nogood not yet
        /// satisfied (of the last 512), the most active, with the value that its occurrences in
        /// learned nogoods favour; by activity where none is open (the CPU engine, deciding on
        /// variables).
        Berkmin = "berkmin",
    }
}

/// How many of the newest learned nogoods `--heuristic=berkmin` looks at for an open one.
pub const BERKMIN_WINDOW: u32 = 512;

named! {
    /// Which variables `--lookahead` tests: atoms, rule bodies, or both (clasp's hybrid).
    pub enum LookKind { Atom = "atom", Body = "body", Hybrid = "hybrid" }
}

/// Failed-literal detection (clasp's `--lookahead=TYPE,N`, the CPU engine): at each fixpoint each
/// unassigned variable of `kind` is tested both ways; a value whose propagation conflicts is a
/// conflict (learned from, so its complement is asserted), and the decision is the variable whose
/// weaker side propagates most. After `limit` fixpoints (0: never) the decisions go back to the
/// heuristic for good.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lookahead {
    pub kind: LookKind,
    pub limit: u32,
}

named! {
    /// What clasp's `--dom-mod` does to the atoms it picks, as a `#heuristic` statement of that
    /// kind would (`true`: level and sign true; `false`: level and sign false).
    pub enum DomModifier {
        Level = "level", Pos = "pos", True = "true", Neg = "neg", False = "false", Init = "init",
        Factor = "factor",
    }
}

/// clasp's `--dom-mod=MOD[,PICK]`: the domain heuristic's modification of the atoms of the
/// classes in `pick` (a set of [`DomMod::SCC`]..[`DomMod::SHOW`]; none: every atom) that no
/// `#heuristic` statement names (`engine/cpu/dom_mod.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DomMod {
    pub modifier: DomModifier,
    pub pick: u8,
}

impl DomMod {
    /// Atoms on a cycle of positive dependencies.
    pub const SCC: u8 = 1;
    /// Atoms of a component with a head cycle.
    pub const HCC: u8 = 2;
    /// Atoms on a cycle of positive dependencies that are in a disjunctive head.
    pub const DISJ: u8 = 4;
    /// The literals of the `#minimize` statements.
    pub const OPT: u8 = 8;
    /// The shown atoms.
    pub const SHOW: u8 = 16;
    /// The names of the classes, bit by bit.
    pub const PICKS: [&'static str; 5] = ["scc", "hcc", "disj", "opt", "show"];
}

/// clasp's form: `neg,opt`, `level` (every atom).
impl std::fmt::Display for DomMod {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.modifier)?;
        for (i, name) in DomMod::PICKS.iter().enumerate() {
            if self.pick & (1 << i) != 0 {
                write!(f, ",{name}")?;
            }
        }
        Ok(())
    }
}

named! {
    /// What a decision may assign: an applicable rule (the paper's ASP computation), or any
    /// variable (as clasp decides), or an applicable rule or any variable that no rule decision
    /// assigns, made false (`mixed`, the CPU engine), or rules, mixed, rules and variables by turns
    /// (the CPU engine:
    /// `engine/cpu/alternate.rs`); `auto` chooses by the program (see [`Decisions::resolve`]).
    pub enum Decisions {
        Auto = "auto",
        Rules = "rules",
        Vars = "vars",
        Mixed = "mixed",
        Alternate = "alternate",
    }
}

impl Decisions {
    /// What `auto` means for a run: variables where it optimizes or the program is not tight (has
    /// positive loops), rules otherwise, on either engine. Chosen by measurement
    /// (BENCHMARKS.md, "Decisions"): by variables yasmin solves 23 of the 40 optimization instances
    /// of `../shared/bench` against 17 by rules (clingo 21), and by rules 19 of `anchor` against 16
    /// (Visit-all, tight, is where variables lose). On non-tight programs rule decisions falsify
    /// atoms by loop nogoods, whose reasons make learned nogoods long (aspcomp Labyrinth 0207: 1,377
    /// literals against 171 by variables, which solve it in 4 s); on the disjunctive and
    /// loop-heavy set variables solve 12 of 12 (PAR2 3.6 s) against 11 (14.0 s). The CUDA engine
    /// on the GPU machine, 10 s, two runs (BENCHMARKS.md, "Decisions on the GPU"): by variables it
    /// proves 7 of 10 optima and finds 9 of 10 Labyrinth plans, by rules 5 and 7; on tight
    /// programs neither wins.
    ///
    /// On tight programs that optimize nothing, `auto` alternates: planning Visit-all needs rules
    /// and planning HanoiTower variables, and by turns one search solves 18 of the 23 such
    /// instances of `../shared/bench` that it or clingo solves, against 16 by rules and 15 by
    /// variables (BENCHMARKS.md, "Decisions by turns"). The turns are rules', mixed's (which
    /// prove planning Sokoban faster than variables do, BENCHMARKS.md, "Mixed decisions"), rules'
    /// again and variables' (which solve planning Nomistery and HanoiTower; "Three ways by
    /// turns"). The CUDA engine decides on rules there.
    pub fn resolve(self, optimizing: bool, tight: bool) -> Decisions {
        match self {
            Decisions::Auto if optimizing || !tight => Decisions::Vars,
            Decisions::Auto => Decisions::Alternate,
            given => given,
        }
    }
}

named! {
    /// clasp's `--sign-def`: the value a decision on a variable gives it (with
    /// [`Decisions::Vars`]): rule bodies true and atoms false (asp; an atom equivalent to a body
    /// of two literals or more counts as a body, a body of one atom as its atom, as in clasp), true (pos), false
    /// (neg), or either at random (rnd, from the search's seed). clasp's asp sign, taken whole,
    /// solves aspcomp Visit-all 0009 in 9 s where atoms false did not in 40 (BENCHMARKS.md).
    pub enum SignDef { Asp = "asp", Pos = "pos", Neg = "neg", Rnd = "rnd" }
}

named! {
    /// Which learned nogoods are deleted: by LBD, by LBD in tiers (a nogood that took part in a
    /// conflict since the last deletion is spared: of LBD up to [`TIER2_LBD`], since the last
    /// two), by activity, or none.
    pub enum Deletion { Lbd = "lbd", Tiered = "tiered", Activity = "activity", No = "no" }
}

/// `--deletion=tiered`'s second tier: learned nogoods of LBD above 2 (which always stay) and up
/// to this, spared while used (CaDiCaL's `tier2`).
pub const TIER2_LBD: u32 = 6;

named! {
    /// clasp's `--strengthen` mode: how conflict analysis removes literals from a learned nogood
    /// that the others imply: not at all (no); a literal whose reason's other literals are all in
    /// the nogood or of level 0 (local); or one that every chain of reasons back from it reaches
    /// the nogood from (recursive, MiniSat's minimization).
    pub enum Strengthen { No = "no", Local = "local", Recursive = "recursive" }
}

named! {
    /// clasp's `--strengthen` type: the reasons the strengthening follows: every one (all), those
    /// of at most three literals (short), or the binary ones (binary); a literal with another
    /// reason stays.
    pub enum StrengthenAntes { All = "all", Short = "short", Binary = "binary" }
}

impl StrengthenAntes {
    /// Whether a reason of `len` literals (the implied one among them) is followed.
    pub fn follows(self, len: usize) -> bool {
        match self {
            StrengthenAntes::All => true,
            StrengthenAntes::Short => len <= 3,
            StrengthenAntes::Binary => len <= 2,
        }
    }
}

named! {
    /// clasp's `--update-lbd`: how a learned nogood's LBD follows the conflicts it takes part in
    /// (its literals' distinct levels when it is a reason in an analysis): not at all, to the new
    /// value where it is lower (less), where it is lower by two or more (glucose), or to the new
    /// value plus one where it is lower (pseudo).
    pub enum LbdUpdate { No = "no", Less = "less", Glucose = "glucose", Pseudo = "pseudo" }
}

impl LbdUpdate {
    /// The LBD a nogood of LBD `old` takes when an analysis finds `new` (`None`: it keeps `old`).
    pub fn updated(self, old: u32, new: u32) -> Option<u32> {
        match self {
            LbdUpdate::No => None,
            LbdUpdate::Less => (new < old).then_some(new),
            LbdUpdate::Glucose => (new + 1 < old).then_some(new),
            LbdUpdate::Pseudo => (new + 1 < old).then_some(new + 1),
        }
    }
}

named! {
    /// Who drives the CUDA engine's propagation rounds: one cooperative launch on the device, or
    /// the host, a launch per step.
    pub enum GpuRounds { Device = "device", Host = "host" }
}

named! {
    /// How `--backend=cuda` searches: one search over the whole GPU (the grid-wide engine), the
    /// search farm, many whole searches in one persistent kernel (`solve/farm/`), or the farm where
    /// it takes the task and the grid-wide engine elsewhere (auto, the default).
    pub enum GpuMode { Auto = "auto", Grid = "grid", Farm = "farm" }
}

named! {
    /// Symmetry breaking (`symmetry/`): none, or lex-leader constraints for the symmetries of the
    /// program found as automorphisms of its graph, where one model or an optimum is asked for.
    pub enum Symmetry { No = "no", Lex = "lex" }
}

named! {
    /// clasp's `--opt-mode`: find and prove an optimum, all optimal models, enumerate models with
    /// their costs, or no optimization.
    pub enum OptMode { Opt = "opt", OptN = "optN", Enum = "enum", Ignore = "ignore" }
}

/// clasp's `--opt-strategy`: branch and bound, descending from model to model (bb), or
/// core-guided (usc: unsatisfiable cores under assumptions raise a lower bound until a model
/// meets it; `solve/core_guided.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptStrategy {
    /// Core-guided with stratification on the CPU engine (in a parallel run its first search,
    /// racing the others' branch and bound), branch and bound on the CUDA engine: the default,
    /// by measurement (BENCHMARKS.md, "Optimization strategies").
    Auto,
    Bb,
    /// `disjoint` (clasp's `usc,oll,disjoint`): cores are looked for disjoint from one another,
    /// a round at a time, and relaxed at the end of each round; else each as soon as found.
    /// `stratify` (clasp's `usc,oll,stratify`): the heaviest cost literals are assumed first,
    /// the lighter ones once a model meets those.
    Usc {
        disjoint: bool,
        stratify: bool,
    },
}

named! {
    /// clasp's `--enum-mode` as far as yasmin has it: models by backtracking (bt: after a model
    /// the search flips its last decision and never backjumps into the space enumerated), by
    /// recording a nogood per model (record), or bt where the search can and record elsewhere
    /// (auto); or brave or cautious consequences.
    pub enum EnumMode {
        Auto = "auto",
        Bt = "bt",
        Record = "record",
        Brave = "brave",
        Cautious = "cautious",
        /// clasp's domRec: a nogood per model over its domain atoms (`solve/dom_rec.rs`).
        DomRec = "domRec",
    }
}

named! {
    /// Projective enumeration onto the atoms of `#project` statements (project), of the output
    /// (show), or of `#project` where there are any, else of the output (auto).
    pub enum ProjectMode { Auto = "auto", Show = "show", Project = "project" }
}

/// clasp's `--rand-freq`: each decision is, with probability `freq`, of a variable drawn at random
/// among those the search has yet to decide (with its usual value), else the heuristic's. The
/// draws, and `--sign-def=rnd`'s, come from `seed`, which the driver sets from `--seed` and the
/// search's index.
/// Invariant: `0 <= freq <= 1`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RandomDecisions {
    pub freq: f64,
    pub seed: u64,
}
