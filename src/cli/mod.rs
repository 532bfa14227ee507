//! The command line, shaped like clasp's so that scripts written for clasp keep working. Every
//! option is declared once (here, or in `search.rs`), with its help; the defaults are the library's
//! ([`SolveOptions::default`], [`SearchOptions::default`]), and [`Cli::solve_options`] maps the
//! parsed arguments onto them. `search.rs` holds the search's own options (what the engines
//! see), `values.rs` parses clasp's value syntaxes, `clasp.rs` its conventions (attached short
//! values, `--`, the error form).

pub mod clasp;
mod portfolio_file;
mod search;
mod tuning;
pub mod values;

use clap::Parser;
pub use search::SearchArgs;
pub use values::*;
use yasmin::app::RunConfig;
use yasmin::input::Format as ProgramFormat;
use yasmin::nogoods::{DEFAULT_EQ_ROUNDS, ExtendedRules};
use yasmin::output::{AtomFormat, Format, Quiet, Shape};
use yasmin::solve::config::{
    Backend, EnumMode, GpuMode, Learning, OptStrategy, SearchOptions, SolveOptions, Symmetry, VerifyThread,
};
use yasmin::solve::configurations::{self, Pinned};
use yasmin::stop::{SolveLimit, StopToken};

#[derive(Parser, Debug, Clone)]
#[command(
    name = "yasmin",
    version,
    disable_version_flag = true,
    disable_help_flag = true,
    about = "A conflict-driven answer set solver for gringo's ground programs (aspif or smodels), on the CPU or an NVIDIA GPU.",
    after_help = "Reads from FILE, or standard input when FILE is '-' or absent. A bare number is the number of models, as in clasp: 'yasmin 0 p.aspif'.\nExit codes: 10 satisfiable, 20 unsatisfiable, 30 optimum/all found, +1 interrupted, 1 command-line error, 65 malformed input, 70 internal error, 128 unreadable input."
)]
pub struct Cli {
    /// Input file and/or number of models.
    #[arg(value_name = "FILE|N")]
    pub args: Vec<String>,

    /// Compute at most N models (0 for all).
    #[arg(short = 'n', long = "models", value_name = "N")]
    pub models: Option<u64>,

    /// What to print, as clasp's --quiet=M[,C[,T]]: models (M), optimization values (C, default
    /// M) and call summaries of a multi-step input (T, default 2), each 0 all, 1 the last, 2
    /// none. -q alone is 2,2,2 (the result and the summary only); -q1,0 attaches the levels.
    #[arg(short = 'q', long = "quiet", value_name = "M[,C[,T]]", num_args = 0..=1, require_equals = true, default_missing_value = "2,2,2", value_parser = parse_quiet)]
    pub quiet: Option<Quiet>,

    /// Output format: 0 clasp text, 1 competition, 2 JSON, 3 none (only the exit code).
    #[arg(long = "outf", value_name = "0|1|2|3", default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=3))]
    pub outf: u8,

    /// The format of a printed atom, clasp's <Pre>?%0<Post>? (%s for %0 too; %% a percent
    /// sign): --out-atomf=%0. prints facts. Text and competition output.
    #[arg(long = "out-atomf", value_name = "FORMAT")]
    pub out_atomf: Option<String>,

    /// What separates the atoms of a printed model: one character, or \t, \n, \v or \\
    /// (--out-ifs=\n: an atom a line). Text and competition output.
    #[arg(long = "out-ifs", value_name = "SEP", value_parser = AtomFormat::parse_ifs)]
    pub out_ifs: Option<u8>,

    /// Hide the shown atoms whose names begin with an underscore (clasp's auxiliary atoms), in
    /// every output format.
    #[arg(long = "out-hide-aux")]
    pub out_hide_aux: bool,

    /// Print statistics: 1 the run's, 2 also each search's (-s, -s2). clasp's tester level (a
    /// second number) is taken and not used.
    #[arg(short = 's', long = "stats", value_name = "N[,T]", num_args = 0..=1, require_equals = true, default_missing_value = "1", value_parser = parse_stats)]
    pub stats: Option<u8>,

    /// Stop after S seconds (and print what was found).
    #[arg(long = "time-limit", value_name = "S")]
    pub time_limit: Option<f64>,

    /// Stop after N conflicts or M restarts of a search (each search of a parallel run counts its
    /// own), as clasp's --solve-limit; what was found is printed, the result is not marked as
    /// interrupted. umax or -1: no limit.
    #[arg(long = "solve-limit", value_name = "N[,M]", value_parser = parse_solve_limit)]
    pub solve_limit: Option<SolveLimit>,

    /// Seed of the perturbation that makes the searches of a parallel run (-t) differ. A single
    /// search has no random parts and does not use it, as clasp's default configuration does
    /// not (the CUDA engine's search still varies from run to run with the order of concurrent
    /// propagations).
    #[arg(long = "seed", default_value_t = SolveOptions::default().seed)]
    pub seed: u64,

    /// A named configuration of the search, clasp's names mapped onto yasmin's options (auto: the
    /// options as given; tweety, trendy, frumpy, crafty, jumpy, handy: presets; many: the default
    /// portfolio of a parallel run, also where its searches divide the space to enumerate), or a
    /// file with one configuration a line in clasp's format (`[name]: options`, `name(base):
    /// options`, or bare search options such as `--decisions=vars --restarts=luby,60`; `#`
    /// comments; the command line's options added to each, and winning), the searches of a
    /// parallel run taking them in turn.
    #[arg(long = "configuration", value_name = "NAME|FILE", default_value = "auto")]
    pub configuration: String,

    /// Which learned nogoods the searches of a parallel run share, as clasp's --distribute:
    /// `no`, or a type (all, conflict, loop, short) with the largest LBD and length shared
    /// (units and binaries always are): default `all,4,64`.
    #[arg(long = "distribute", value_name = "TYPE[,LBD[,SIZE]]|no", default_value = "all,4,64", value_parser = parse_distribute)]
    pub distribute: Distribution,

    /// Parallel search, as clasp's --parallel-mode: N searches (1 to 64) of the program, each on
    /// an engine of its own (each CUDA engine on its share of the GPU's multiprocessors), each with
    /// a configuration of its own (clasp's portfolio, tweety first, each keeping the search
    /// options given, or --configuration's; searches that divide the space to enumerate models
    /// each take the options given, a preset's included, unless --configuration is many or a
    /// file) and its
    /// initial scores perturbed (from --seed), sharing learned
    /// nogoods (--distribute). compete (the default): for one model the first to find one or to
    /// exhaust the search answers; for an optimum they share the best cost found (each model
    /// printed improves on those before) and the first to exhaust its search proves it.
    /// Enumerating more than one model (and optN's optimal models) divides the space as split
    /// does; brave or cautious consequences run one search and say so. split: the searches
    /// divide the search space by guiding paths (an idle search takes an open part of a busy
    /// one's), for enumeration (every model once; their order varies from run to run),
    /// optimization and proofs that there is none; brave and cautious consequences run one
    /// search.
    #[arg(short = 't', long = "parallel-mode", value_name = "N[,compete|split]", default_value = "1", value_parser = parse_threads)]
    pub parallel: ParallelMode,

    /// How the GPU searches (--backend=cuda or auto): farm (--gpu-searches whole searches, a
    /// warp each, decide, propagate, learn and restart inside one persistent kernel and share
    /// short learned nogoods there, --distribute=no: none), grid (one search over the whole GPU),
    /// or auto (the default): the farm where it takes the task, the grid elsewhere (the CPU engine
    /// with --backend=auto). The farm
    /// answers one model or none, and enumerates them (-n 0, -n K), where the program has no head
    /// cycle, no aggregate supporting an atom on a positive cycle and no #edge (its searches check
    /// for unfounded sets); other tasks (optimization, --project, consequences, --solve-limit) and
    /// programs run the grid with auto (--backend=auto: the CPU engine), and the usual search with
    /// farm, with a warning. With -t N
    /// and the farm the N searches are the CPU engine's: for one model (compete) they race the
    /// farm, sharing nogoods with it through the host, and where the farm declines the task they
    /// search without it. Where the GPU cannot be used, --backend=auto runs the CPU engine;
    /// --backend=cuda stops with an error (auto: runs the grid, which may then stop so).
    #[arg(long = "gpu-mode", default_value = "auto", value_parser = named::<GpuMode>())]
    pub gpu_mode: GpuMode,

    /// The search farm's searches (--gpu-mode=farm or auto; 0: 16 a multiprocessor, fewer where the
    /// device's memory is short).
    #[arg(long = "gpu-searches", value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub gpu_searches: u32,

    /// The CUDA devices to search on: all (the default), or their numbers (0,1). The searches of
    /// -t N are dealt out over them; the search farm runs a farm on each, which exchange learned
    /// nogoods through the host, or with -t N,split divide the search space among them. A device
    /// given twice runs two farms.
    #[arg(long = "gpu-devices", value_name = "LIST", default_value = "all", value_parser = parse_gpu_devices)]
    pub gpu_devices: GpuDevices,

    /// Which engine runs the search: cpu, cuda (an NVIDIA GPU), or auto (the default): for one
    /// model the search farm on the GPU where one is present and the farm takes the task, racing
    /// -t N's CPU searches (one with -t 1), and the CPU engine otherwise: for optimization,
    /// --project, consequences, one search enumerating (-n 0 -t 1, in one order from run to run),
    /// and options the GPU's engines do not honour (--heuristic=Domain, --lookahead, ...). On 56
    /// competition instances auto -t 8 solved more than clingo -t 8 and than cpu -t 8 (README,
    /// "The GPU"). Without a GPU auto is cpu.
    #[arg(long = "backend", default_value_t = SolveOptions::default().backend, value_parser = named::<Backend>())]
    pub backend: Backend,

    /// Equivalence preprocessing, as clasp's --eq: at most N rounds (-1: to a fixpoint; 0: off)
    /// of substituting literals that imply one another through binary nogoods by one of them
    /// (the CPU engine and the search farm; the grid-wide CUDA engine takes the program as it is).
    #[arg(long = "eq", value_name = "N", default_value_t = DEFAULT_EQ_ROUNDS as i32, allow_negative_numbers = true,
          value_parser = clap::value_parser!(i32).range(-1..))]
    pub eq: i32,

    /// Extended rules, as clasp's --trans-ext: integ (the default) translates integrity
    /// constraints over counts into counters the search can learn on, where clasp would (one
    /// such constraint, or few among many rules); dynamic also spells out weight bodies of at most
    /// six terms as conjunctions, as clasp's default configurations do; no propagates every
    /// weight and cardinality constraint natively. clasp's all, choice, card, weight and scc run
    /// as dynamic, with a warning.
    #[arg(long = "trans-ext", value_name = "MODE", default_value = "integ", value_parser = parse_trans_ext)]
    pub trans_ext: Nearest<ExtendedRules>,

    /// Whether an at-most-one of at most 24 terms (`:- 2 #count{...}`, `{ p(X) } 1`) becomes
    /// binary nogoods, a pair of terms each, instead of a weight constraint or counters (not with
    /// --trans-ext=no). Default: yes where models are enumerated without costs (-n 0, -n N), as
    /// --shrink (queens 12 in 0.73 of the time), no for one model or an optimum (RicochetRobots
    /// lost two of five runs).
    #[arg(long = "pair-at-most-one", value_name = "yes|no", num_args = 0..=1, require_equals = true, default_missing_value = "yes", value_parser = clap::builder::BoolishValueParser::new())]
    pub pair_at_most_one: Option<bool>,

    /// Variable elimination and subsumption on the nogoods before the search, as clasp's
    /// --sat-prepro (`<level>[,<limit>...]`, level 1 to 3, limits iter, occ, time, frozen and
    /// size; no: off, the default; without a value, 2). Where one model is asked for, without
    /// costs, on the CPU engine with decisions on variables, which auto then takes (elsewhere it
    /// warns and does nothing); weight constraints' and loops' variables are kept.
    #[arg(long = "sat-prepro", value_name = "ARG", num_args = 0..=1, require_equals = true, default_missing_value = "2",
          value_parser = parse_sat_prepro)]
    pub sat_prepro: Option<SatPreproArg>,

    /// Symmetry breaking: lex (the program's symmetries, found as automorphisms of its graph,
    /// broken by lex-leader constraints, as BreakID does for clasp) or no. Only where one model or
    /// an optimum is asked for: enumerations, projections and consequences keep every answer set.
    #[arg(long = "symmetry", value_name = "no|lex", default_value_t = SolveOptions::default().symmetry, value_parser = named::<Symmetry>())]
    pub symmetry: Symmetry,

    /// Optimization mode: opt (find and prove an optimum), optN (all optimal models), enum
    /// (enumerate models, printing their costs), ignore (no optimization); as clasp's, a bound
    /// per priority level may follow, highest first (opt,10 or enum,3,5): only models costing at
    /// most that are looked for.
    #[arg(long = "opt-mode", value_name = "MODE[,BOUND...]", default_value = "opt", value_parser = parse_opt_mode)]
    pub opt_mode: OptModeArg,

    /// Optimization strategy: bb[,lin] (branch and bound, descending from model to model) or
    /// usc[,oll][,disjoint|stratify|MASK] (core-guided: unsatisfiable cores raise a lower bound
    /// until a model meets it, on the CPU engine; with -t N the first search, racing the others'
    /// branch and bound). Default: usc,oll,stratify, bb on the CUDA engine. bb,hier|inc|dec run
    /// as bb,lin and usc's other tactics as usc,oll, with a warning.
    #[arg(long = "opt-strategy", value_name = "bb|usc[,...]", value_parser = parse_opt_strategy)]
    pub opt_strategy: Option<Nearest<OptStrategy>>,

    /// Enumeration mode: bt (backtrack after each model), record (a nogood per model), auto (bt
    /// for one search without projection, else record), brave or cautious consequences (query:
    /// clasp's other way to the cautious ones, the same consequences), or domRec (a nogood per
    /// model over the atoms #heuristic or --dom-mod give a positive level: with
    /// --heuristic=Domain --dom-mod=false,show the subset-minimal models over the shown atoms).
    #[arg(short = 'e', long = "enum-mode", value_name = "auto|bt|record|brave|cautious|query|domRec", default_value_t = SolveOptions::default().enum_mode, value_parser = parse_enum_mode)]
    pub enum_mode: EnumMode,

    /// Projective enumeration: each answer set projected onto the atoms of #project statements
    /// (project), of output statements (show), or of #project if there are any, else of the
    /// output (auto, the default when no value is given), is printed once; no: off, as without
    /// the option. clasp's forms MODE,BT (BT 0 to 3 tunes clasp's backtracking over the
    /// projection) and a number 0 to 7 (0: off, else auto) are taken too.
    #[arg(long = "project", value_name = "MODE[,BT]", num_args = 0..=1, require_equals = true, default_missing_value = "auto", value_parser = parse_project)]
    pub project: Option<Project>,

    /// Whether models are verified in threads of their own while the searches go on: one search
    /// enumerating models (-n 0 or N > 1, without costs) hands them to a second thread that
    /// verifies and prints them, and each search of -t N,split counting models (-q) to a
    /// checker of its own. 1, the default: where the machine has a core for each search and
    /// each checker; 2: always; 0: each search verifies its models itself before it searches
    /// for the next.
    #[arg(long = "verify-thread", value_name = "0|1|2", default_value_t = 1, num_args = 0..=1, require_equals = true, default_missing_value = "1", value_parser = clap::value_parser!(u8).range(0..=2))]
    pub verify_thread: u8,

    /// Print the program as read (aspif or smodels; --pre alone: aspif, as clasp's) instead of
    /// solving it.
    #[arg(long = "pre", value_enum, value_name = "FORMAT", num_args = 0..=1, require_equals = true, default_missing_value = "aspif")]
    pub pre: Option<PreFormat>,

    /// Only read the program: print its size and the reading speed, then exit.
    #[arg(long = "parse-only")]
    pub parse_only: bool,

    /// Print the version and exit.
    #[arg(short = 'v', long = "version", action = clap::ArgAction::Version)]
    pub version: Option<bool>,

    /// Print help and exit: 1 (-h, --help) each option in a line, 2 or 3 every option in full.
    #[arg(short = 'h', long = "help", value_name = "N", num_args = 0..=1, require_equals = true, default_missing_value = "1", value_parser = clap::value_parser!(u8).range(1..=3))]
    pub help: Option<u8>,

    /// Print the completions of the options for a shell (bash, zsh, fish, elvish, powershell)
    /// and exit: `yasmin --completions bash > /etc/bash_completion.d/yasmin`.
    #[arg(long = "completions", value_name = "SHELL", value_parser = clap::value_parser!(clap_complete::Shell))]
    pub completions: Option<clap_complete::Shell>,

    /// Print the manual page (roff) and exit: `yasmin --man > yasmin.1; man ./yasmin.1`.
    #[arg(long = "man")]
    pub man: bool,

    /// Print the portfolio a parallel run takes (the default, or --configuration's) in clasp's
    /// format, which --configuration=FILE reads back, and exit.
    #[arg(long = "print-portfolio")]
    pub print_portfolio: bool,

    /// Verbosity, as clasp's: 0 prints only the models and the result (and statistics if
    /// asked), 1 (the default) clasp's usual lines, 2 also a progress line every second (time,
    /// models, best cost, conflicts, restarts) and yasmin's diagnostics on standard error, 3 (-V
    /// alone) more of them (RUST_LOG works too).
    #[arg(short = 'V', long = "verbose", value_name = "N", num_args = 0..=1, require_equals = true, default_value_t = 1, default_missing_value = "3", value_parser = clap::value_parser!(u8).range(0..=255))]
    pub verbose: u8,

    #[command(flatten)]
    pub search: SearchArgs,

    /// Warnings for clasp's tuning options given, which yasmin ignores (`tuning.rs`).
    #[arg(skip)]
    pub ignored: Vec<String>,

    /// The options given on the command line (their argument ids), which a `--configuration`
    /// preset does not override.
    #[arg(skip)]
    pub given: Vec<String>,

    /// The command line's words (clasp's forms normalized), which a portfolio file's
    /// configurations take after their own.
    #[arg(skip)]
    pub argv: Vec<String>,
}

impl Cli {
    /// Splits the positional arguments into the input files (read one after another, as clasp
    /// reads them; none: standard input) and clasp's bare model count.
    pub fn input_and_models(&self) -> (Vec<String>, Option<u64>) {
        let mut files = Vec::new();
        let mut models = self.models;
        for a in &self.args {
            match a.parse::<u64>() {
                Ok(n) if !std::path::Path::new(a).exists() => {
                    if self.models.is_none() {
                        models = Some(n);
                    }
                }
                _ => files.push(a.clone()),
            }
        }
        (files, models)
    }

    /// The task as the library takes it: `models` (from -n or a bare number; clasp ignores the
    /// model count at the end of smodels input, and so do we) and the run's stop token.
    pub fn solve_options(&self, models: Option<u64>, stop: &StopToken) -> Result<SolveOptions, String> {
        let (search, portfolio, _) = self.configurations()?;
        if self.gpu_mode == GpuMode::Farm && self.backend == Backend::Cpu {
            return Err("--gpu-mode=farm searches on the GPU: give --backend=cuda (or auto)".into());
        }
        if self.gpu_mode == GpuMode::Farm && self.solve_limit.is_some() {
            return Err("--solve-limit is not counted by the search farm's searches (--gpu-mode=farm): \
                        give --gpu-mode=grid, or --time-limit"
                .into());
        }
        Ok(SolveOptions {
            models,
            opt_mode: self.opt_mode.mode,
            opt_strategy: self.opt_strategy.as_ref().map_or(OptStrategy::Auto, |s| s.value),
            opt_bound: self.opt_mode.bound.clone(),
            progress: None,
            enum_mode: self.enum_mode,
            project: self.project.and_then(|p| p.0),
            backend: self.backend,
            equivalences: u32::try_from(self.eq).unwrap_or(u32::MAX),
            extended_rules: self.trans_ext.value,
            pair_at_most_one: self.pair_at_most_one,
            symmetry: self.symmetry,
            sat_prepro: self.sat_prepro.and_then(|s| s.0),
            search,
            stop: stop.clone(),
            threads: self.parallel.threads,
            split: self.parallel.split,
            seed: self.seed,
            portfolio,
            pinned: pinned(&self.given),
            many: self.configuration.eq_ignore_ascii_case("many"),
            distribute: self.distribute.0,
            gpu_mode: self.gpu_mode,
            gpu_searches: self.gpu_searches,
            gpu_devices: self.gpu_devices.0.clone().unwrap_or_default(),
            verify_thread: match self.verify_thread {
                0 => VerifyThread::Never,
                1 => VerifyThread::WhereCores,
                _ => VerifyThread::Always,
            },
            fault: None,
        })
    }

    /// What the options take but cannot honour exactly (clasp prints these as warnings).
    pub fn warnings(&self) -> Vec<String> {
        let mut w = self.search.warnings();
        w.extend(self.ignored.iter().cloned());
        if let Ok((_, _, file)) = self.configurations() {
            w.extend(file);
        }
        w.extend(self.opt_strategy.as_ref().and_then(|s| s.warning.clone()));
        w.extend(self.trans_ext.warning.clone());
        if self.opt_strategy.as_ref().is_some_and(|s| matches!(s.value, OptStrategy::Usc { .. }))
            && self.backend == Backend::Cuda
        {
            w.push(
                "--opt-strategy=usc: the CUDA engine does not extract cores; optimizing by branch and bound"
                    .into(),
            );
        }
        // With --backend=auto a search that asks for any of these runs on the CPU engine.
        if self.backend == Backend::Cuda {
            w.extend(self.search.options().cuda_ignores());
        }
        if self.search.heuristic.value.2 && self.search.learning == Learning::Fwd {
            w.push(
                "--heuristic=Unit: decisions by lookahead need 1-UIP learning; deciding by activity".into(),
            );
        }
        if self.search.lookahead.is_some_and(|l| l.0.is_some()) && self.search.learning == Learning::Fwd {
            w.push(
                "--lookahead: off under forward learning (1-UIP learning learns from failed literals)".into(),
            );
        }
        if self.quiet().calls < 2 {
            w.push("--quiet: call summaries (the third level) are not printed; the run's summary is".into());
        }
        w
    }

    /// The quiet levels (clasp's default 0,0,2 where --quiet is not given).
    pub fn quiet(&self) -> Quiet {
        self.quiet.unwrap_or(Quiet::DEFAULT)
    }

    /// `--configuration`: the first search's options, and a parallel run's configurations when a
    /// file gives them (empty: the default portfolio), with the warnings the file's lines give.
    fn configurations(&self) -> Result<(SearchOptions, Vec<SearchOptions>, Vec<String>), String> {
        let base = self.search.options();
        let name = self.configuration.as_str();
        // Presets' names in any case, as clasp reads them (`Tweety`); a file's as given.
        let preset_name = name.to_ascii_lowercase();
        if let Some(preset) = configurations::preset(&preset_name, &base, pinned(&self.given)) {
            // As in clasp, a preset configures every search of a parallel run.
            let every = if preset_name == "auto" { Vec::new() } else { vec![preset.clone()] };
            return Ok((preset, every, Vec::new()));
        }
        if preset_name == "many" {
            return Ok((base, Vec::new(), Vec::new()));
        }
        let text = std::fs::read_to_string(name).map_err(|e| {
            format!(
                "--configuration={name}: neither a configuration ({}) nor a readable file: {e}",
                configurations::NAMES.join(", ")
            )
        })?;
        let (list, warnings) = portfolio_file::read(name, &text, &self.argv)?;
        let first = list.first().cloned().ok_or_else(|| format!("{name}: no configuration in the file"))?;
        Ok((first, list, warnings))
    }

    /// `--print-portfolio`: the configurations of a parallel run (the default portfolio over the
    /// options given, the GPU's where the searches are CUDA engines, or a file's), in clasp's
    /// format.
    pub fn portfolio_text(&self) -> Result<String, String> {
        let (first, list, _) = self.configurations()?;
        let list = if list.is_empty() {
            let gpu = self.solve_options(None, &StopToken::never())?.search_backend() != Backend::Cpu;
            configurations::default_portfolio(&first, pinned(&self.given), gpu)
        } else {
            list
        };
        Ok(portfolio_file::print(&list))
    }

    /// The run the command line asks for (`app::run` makes its stop token from the time limit).
    pub fn run_config(&self) -> Result<RunConfig, String> {
        let (files, models) = self.input_and_models();
        let format = match self.outf {
            1 => Format::Competition,
            2 => Format::Json,
            3 => Format::Nothing,
            _ => Format::Text,
        };
        let mut atoms =
            if format == Format::Competition { AtomFormat::competition() } else { AtomFormat::text() };
        if let Some(f) = &self.out_atomf {
            atoms = atoms.with_atomf(f)?;
        }
        atoms.ifs = self.out_ifs.unwrap_or(atoms.ifs);
        Ok(RunConfig {
            files,
            opts: self.solve_options(models, &StopToken::never())?,
            time_limit: self.time_limit,
            solve_limit: self.solve_limit,
            shape: Shape {
                format,
                quiet: self.quiet(),
                verbose: self.verbose,
                stats: self.stats.unwrap_or(0),
                atoms,
                hide_aux: self.out_hide_aux,
            },
            pre: self.pre.map(|p| match p {
                PreFormat::Aspif => ProgramFormat::Aspif,
                PreFormat::Smodels => ProgramFormat::Smodels,
            }),
            parse_only: self.parse_only,
            warnings: self.warnings(),
        })
    }
}

/// The search options `given` (argument ids) sets, which presets and the default portfolio
/// keep, as clasp's configurations do.
fn pinned(given: &[String]) -> Pinned {
    let set = |id: &str| given.iter().any(|g| g == id);
    Pinned {
        decisions: set("decisions"),
        heuristic: set("heuristic"),
        save_progress: set("save_progress"),
        restarts: set("restarts"),
        deletion: set("deletion"),
        del_cfl: set("del_cfl"),
        update_lbd: set("update_lbd"),
        lookahead: set("lookahead"),
        dom_mod: set("dom_mod"),
        strengthen: set("strengthen"),
        init_moms: set("init_moms_flag") || set("no_init_moms"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use yasmin::solve::config::{
        Decisions, Heuristic, LbdUpdate, ProjectMode, Restarts, Strengthen, StrengthenAntes,
    };

    #[test]
    fn command_line_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn the_defaults_are_the_librarys() {
        let c = Cli::parse_from(["yasmin"]);
        assert_eq!(format!("{:?}", SearchOptions::default()), format!("{:?}", c.search.options()));
        let o = c.solve_options(None, &StopToken::never()).unwrap();
        let d = SolveOptions::default();
        assert_eq!(
            (o.backend, o.opt_mode, o.enum_mode, o.project, o.threads, o.seed),
            (d.backend, d.opt_mode, d.enum_mode, d.project, d.threads, d.seed)
        );
        let c = Cli::parse_from([
            "yasmin",
            "--learning=fwd",
            "--restarts=geom,10,2",
            "--project",
            "--heuristic=jw",
        ]);
        assert_eq!(
            (c.search.learning, c.search.restarts.value, c.search.heuristic.value.0),
            (
                Learning::Fwd,
                yasmin::solve::config::Restarts::Geometric(10, 2.0).into(),
                Heuristic::JeroslowWang
            )
        );
        assert_eq!(c.project, Some(Project(Some(ProjectMode::Auto))));
        assert_eq!(Cli::parse_from(["yasmin", "--project=no"]).project, Some(Project(None)));
        assert!(Cli::try_parse_from(["yasmin", "--learning=fast"]).is_err());
    }

    #[test]
    fn sat_prepro_reads_clasps_values() {
        let stop = StopToken::never();
        let sat = |args: &[&str]| match clasp::parse(args.iter().map(std::ffi::OsString::from)) {
            Ok(clasp::Parsed::Run(cli)) => cli.solve_options(None, &stop).unwrap().sat_prepro,
            _ => panic!("{args:?}"),
        };
        assert_eq!(sat(&["yasmin"]), None, "off by default");
        assert_eq!(sat(&["yasmin", "--sat-prepro"]), Some(yasmin::nogoods::SatPrepro::default()));
        assert_eq!(sat(&["yasmin", "--sat-prepro=no"]), None);
        let p = sat(&["yasmin", "--sat-prepro=1,occ=25,time=5"]).unwrap();
        assert_eq!((p.level, p.occurrences, p.seconds, p.size), (1, 25, 5, 4000));
        assert!(Cli::try_parse_from(["yasmin", "--sat-prepro=0,2"]).is_err());
    }

    #[test]
    fn options_given_win_over_a_preset() {
        let stop = StopToken::never();
        let run = |args: &[&str]| match clasp::parse(args.iter().map(std::ffi::OsString::from)) {
            Ok(clasp::Parsed::Run(cli)) => cli.solve_options(None, &stop).unwrap().search,
            _ => panic!("{args:?}"),
        };
        let tweety = run(&["yasmin", "--configuration=tweety"]);
        assert_eq!((tweety.save_progress, tweety.decay), (Some(160), 0.92));
        let given = run(&[
            "yasmin",
            "--configuration=tweety",
            "--save-progress=5",
            "--heuristic=Vsids,95",
            "--del-cfl=+,300,50",
            "--update-lbd=no",
        ]);
        assert_eq!((given.save_progress, given.decay), (Some(5), 0.95));
        assert_eq!(
            (given.del_cfl, given.update_lbd),
            (Some(Restarts::Arithmetic(300, 50).into()), Some((LbdUpdate::No, 0)))
        );
        assert_eq!(given.restarts, tweety.restarts, "restarts were not given");
        let given = run(&["yasmin", "--configuration=tweety", "-r", "L,100", "--decisions=rules"]);
        assert_eq!((given.restarts, given.decisions), (Restarts::Luby(100).into(), Decisions::Rules));
        // clasp's frumpy strengthens locally, unless the command line says otherwise.
        assert_eq!(run(&["yasmin", "--configuration=frumpy"]).strengthen.0, Strengthen::Local);
        let given = run(&["yasmin", "--configuration=frumpy", "--strengthen=recursive,binary"]);
        assert_eq!(given.strengthen, (Strengthen::Recursive, StrengthenAntes::Binary));
        // tweety starts from MOMS scores, as clasp's; --no-init-moms (the last of the two wins).
        assert!(tweety.init_moms && !run(&["yasmin"]).init_moms && run(&["yasmin", "--init-moms"]).init_moms);
        assert!(!run(&["yasmin", "--configuration=tweety", "--no-init-moms"]).init_moms);
        assert!(run(&["yasmin", "--no-init-moms", "--init-moms"]).init_moms);
    }

    #[test]
    fn configurations_and_distribution() {
        let stop = StopToken::never();
        let o = Cli::parse_from(["yasmin", "--configuration=tweety"]).solve_options(None, &stop).unwrap();
        assert_eq!((o.search.decisions, o.search.save_progress), (Decisions::Vars, Some(160)));
        assert!(!o.many, "a preset is no portfolio");
        assert_eq!(o.portfolio.len(), 1, "as in clasp, the preset is every search's");
        let args = ["yasmin", "-t", "8", "--heuristic=berkmin"].map(std::ffi::OsString::from);
        let Ok(clasp::Parsed::Run(cli)) = clasp::parse(args) else { panic!("a run") };
        let o = cli.solve_options(None, &stop).unwrap();
        assert!(o.portfolio.is_empty() && o.pinned.heuristic && !o.pinned.restarts, "{:?}", o.pinned);
        let o = Cli::parse_from(["yasmin", "--configuration=many"]).solve_options(None, &stop).unwrap();
        assert!(o.many && o.portfolio.is_empty(), "many: the default portfolio, also dividing");
        let err =
            Cli::parse_from(["yasmin", "--configuration=speedy"]).solve_options(None, &stop).unwrap_err();
        assert!(err.contains("tweety") && err.contains("speedy"), "{err}");
        let mut f = tempfile::NamedTempFile::new().unwrap();
        std::io::Write::write_all(
            &mut f,
            b"# two searches\n--decisions=vars --restarts=luby,60\n\n--learning=fwd\n",
        )
        .unwrap();
        let c = Cli::parse_from(["yasmin".into(), format!("--configuration={}", f.path().display())]);
        let o = c.solve_options(None, &stop).unwrap();
        assert_eq!(o.portfolio.len(), 2);
        assert_eq!((o.search.decisions, o.portfolio[1].learning), (Decisions::Vars, Learning::Fwd));
        std::io::Write::write_all(&mut f, b"--restarts=fast\n").unwrap();
        let c = Cli::parse_from(["yasmin".into(), format!("--configuration={}", f.path().display())]);
        assert!(c.solve_options(None, &stop).unwrap_err().contains(":5:"), "the line is named");
    }

    #[test]
    fn bare_number_is_model_count() {
        let c = Cli::parse_from(["yasmin", "0", "does-not-exist.aspif", "b.aspif"]);
        assert_eq!(c.input_and_models(), (vec!["does-not-exist.aspif".into(), "b.aspif".into()], Some(0)));
        let c = Cli::parse_from(["yasmin", "-n", "3", "5"]);
        assert_eq!(c.input_and_models(), (vec![], Some(3)));
    }
}
