//! The application: read the input step by step, solve each step, print as clasp does, and
//! return clasp's exit code.

use crate::input::{Format as ProgramFormat, Inputs, Loaded, Polled, ReadError, Reader, load};
use crate::output::paced::Paced;
use crate::output::{Printer, RunInfo, Shape, ShownTable};
use crate::program::{ProgramBuilder, ProgramSink};
use crate::solve::config::{EnumMode, Heuristic, OptMode, SolveOptions};
use crate::solve::progress::Progress;
use crate::solve::{Outcome, SolveError, solve};
use crate::stop::{Aside, Phase, SolveLimit, Stop, StopToken, install_interrupt_handler};
use crate::writer::{AspifWriter, SmodelsWriter};
use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

/// The exit code for malformed input (clasp's data error).
pub const EXIT_ERROR: i32 = 65;

/// clasp's exit code for a usage error (an unknown option, a bad value).
pub const EXIT_USAGE: i32 = 1;

/// clasp's exit code for an input it cannot read (it does not run).
pub const EXIT_NO_RUN: i32 = 128;

/// The exit code for an internal or device error.
pub const EXIT_INTERNAL: i32 = 70;

/// How the run ends: with an exit code, or as a writer to a closed pipe does (clasp dies of
/// SIGPIPE there; `main` does the same).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    BrokenPipe,
}

fn error(msg: impl std::fmt::Display) -> Exit {
    eprintln!("*** ERROR: (yasmin): {msg}");
    Exit::Code(EXIT_ERROR)
}

/// A solve that could not answer: an input error (65), an internal or device error (70), or a
/// closed output (quietly).
fn failed(name: &str, e: SolveError) -> Exit {
    match e {
        SolveError::Unsupported(_) => error(format!("{name}: {e}")),
        SolveError::Output(io) if io.kind() == std::io::ErrorKind::BrokenPipe => Exit::BrokenPipe,
        _ => {
            eprintln!("*** ERROR: (yasmin): {e}");
            Exit::Code(EXIT_INTERNAL)
        }
    }
}

fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes into the struct we pass.
    unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut u) != 0 {
            return 0.0;
        }
        let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 * 1e-6;
        t(u.ru_utime) + t(u.ru_stime)
    }
}

/// Diagnostics on standard error in clasp's form (`*** Warn : (yasmin): ...`): warnings
/// always, yasmin's information from verbosity 2, details from 3 (`RUST_LOG` overrides).
fn init_logging(verbose: u8) {
    let level = match verbose {
        0 | 1 => "warn",
        2 => "info",
        _ => "debug",
    };
    let env = env_logger::Env::default().default_filter_or(level);
    let _ = env_logger::Builder::from_env(env)
        .format(|f, r| {
            let tag = match r.level() {
                log::Level::Error => "ERROR",
                log::Level::Warn => "Warn ",
                log::Level::Info => "Info ",
                log::Level::Debug => "Debug",
                log::Level::Trace => "Trace",
            };
            writeln!(f, "*** {tag}: (yasmin): {}", r.args())
        })
        .try_init();
}

/// Standard output through a paced buffer (`output/paced.rs`); a failed write (a closed pipe)
/// stops the run at once, which then ends as clasp's does ([`Exit::BrokenPipe`]).
fn paced_stdout(stop: &StopToken) -> Paced<std::io::Stdout> {
    let stop = stop.clone();
    Paced::new(std::io::stdout(), move |_| stop.stop(Stop::Signal))
}

/// What a run is asked for: the inputs, the solve's options and the output's shape.
pub struct RunConfig {
    /// The inputs, read one after another (none: standard input).
    pub files: Vec<String>,
    /// What each step is solved for (the same for every step); its stop token is the run's,
    /// made from `time_limit` and `solve_limit` (clasp's `--solve-limit`: each search's conflicts
    /// and restarts) when the run starts.
    pub opts: SolveOptions,
    pub time_limit: Option<f64>,
    pub solve_limit: Option<SolveLimit>,
    /// What is printed; its verbosity 2 and more also adds the progress line and yasmin's
    /// diagnostics.
    pub shape: Shape,
    /// Print the program as read in this format instead of solving it.
    pub pre: Option<ProgramFormat>,
    /// Only read the program and report the reading speed.
    pub parse_only: bool,
    /// What the options took but cannot honour exactly, printed as warnings.
    pub warnings: Vec<String>,
}

/// Whether the process ends through `exit`, which tears its libraries down: not while CUDA
/// kernels are still being loaded on a thread that a stop left to finish aside (the search farm
/// set up beside CPU searches that answered first), where the teardown would pull the libraries
/// from under it, nor where a device was opened and the driver's teardown would take its time for
/// nothing ([`Kernels::teardown_needless`]). Then the process ends without the teardown.
pub fn ends_through_exit() -> bool {
    use crate::engine::cuda::{device::Device, kernels::Kernels};
    !Device::loading_aside() && !Kernels::teardown_needless()
}

/// For a process that ends without the teardown ([`ends_through_exit`] false), just before its
/// `_exit`, the output flushed: where no tool is injected into the driver, leaves the driver's
/// files to a child (`engine/cuda/release.rs`; also while a thread is still opening the device),
/// so that the process' end does not wait for the device to be freed.
pub fn leave_driver_aside() {
    use crate::engine::cuda::{kernels::Kernels, release::leave_driver_to_child};
    debug_assert!(!ends_through_exit(), "only where the process ends without the teardown");
    if !Kernels::tool_injected() && leave_driver_to_child().is_none() {
        log::debug!("the driver's teardown stays with the process: fork failed");
    }
}

/// Runs yasmin as `cfg` says; returns how to exit.
pub fn run(cfg: RunConfig) -> Exit {
    let start = Instant::now();
    init_logging(cfg.shape.verbose);
    install_interrupt_handler();
    let stop = StopToken::for_run(cfg.time_limit, cfg.solve_limit, start);
    let files = cfg.files;
    let mut opts = cfg.opts;
    opts.stop = stop.clone();
    for w in &cfg.warnings {
        log::warn!("{w}");
    }
    // -V2 and more: a progress line on standard error every second.
    // It stops before the summary is printed.
    let progress_line = (cfg.shape.verbose >= 2).then(|| {
        let p = Arc::new(Progress::new(start));
        opts.progress = Some(Arc::clone(&p));
        ProgressLine::start(p)
    });
    // The GPU opens while the input is read: the farm's devices (every one by default), or the
    // engine's.
    if crate::solve::gpu_may_search(&opts) && cfg.pre.is_none() && !cfg.parse_only {
        let ordinals = match opts.farm() {
            None => Some(vec![opts.search.gpu_device]),
            Some(_) => (!opts.gpu_devices.is_empty()).then(|| opts.gpu_devices.clone()),
        };
        crate::engine::cuda::device::Device::open_early(ordinals);
    }
    let shape = cfg.shape;
    let inputs = match load(&files, &stop) {
        Ok(Loaded::Bytes(b)) => b,
        Ok(Loaded::Stopped(why)) => {
            drop(progress_line);
            let mut printer = Printer::new(paced_stdout(&stop), shape, start);
            printer.begin(files.first().map_or("stdin", |f| f.as_str()));
            return summary(&mut printer, &opts, &Outcome::stopped(why), 0, 0.0, start, &stop);
        }
        Err(e) => {
            eprintln!("*** ERROR: (yasmin): Can not read from '{}': {}", e.name, e.error);
            return Exit::Code(EXIT_NO_RUN);
        }
    };
    let input = &inputs.bytes;
    let name = inputs.title();
    let mut reader = match Reader::new(input) {
        Ok(r) => r,
        Err(e) => return malformed(&inputs, &e),
    };
    if let Some(fmt) = cfg.pre {
        return pre(&mut reader, fmt, &inputs);
    }
    if cfg.parse_only {
        return parse_only(&mut reader, &inputs, start);
    }
    let mut printer = Printer::new(paced_stdout(&stop), shape, start);
    printer.begin(&name);
    // A big program is freed aside once the run is over: the summary, then the exit, at once.
    let mut builder = Aside::new(ProgramBuilder::new(input.len()), input.len());
    let mut outcome: Option<Outcome> = None;
    let mut solve_time = 0.0;
    let mut warned_heuristics = false;
    let mut warned_theory = false;
    let mut calls = 0;
    // Models of the steps before the last (clasp's summary counts every step's).
    let mut earlier_models = 0;
    while reader.has_step() {
        stop.enter(Phase::Reading);
        let mut polled = Polled::new(&mut *builder, &stop);
        let read = reader.read_step(&mut polled);
        if let Some(why) = polled.stopped {
            // The step read so far is not solved: clasp's outcome of a run stopped while reading.
            earlier_models += outcome.replace(Outcome::stopped(why)).map_or(0, |o| o.models);
            break;
        }
        if let Err(e) = read {
            let _ = printer.flush();
            return malformed(&inputs, &e);
        }
        // A step without answer sets leaves none to the later ones (their rules cannot change
        // the earlier atoms): as clasp, they are read and counted, not solved. (clasp solves them
        // where the step's proof rested on an external atom's value; yasmin does not tell.)
        if outcome.as_ref().is_some_and(|o| o.exhausted && o.models == 0 && o.interrupted.is_none()) {
            calls += 1;
            continue;
        }
        let program = builder.program();
        let domain = opts.search.heuristic == Heuristic::Domain;
        if program.heuristics().next().is_some() && !warned_heuristics && !domain {
            warned_heuristics = true;
            log::warn!(
                "heuristic statements are ignored without --heuristic=Domain (they never change the answer sets)"
            );
        }
        if program.theory().next().is_some() && !warned_theory {
            warned_theory = true;
            log::warn!(
                "theory atoms are taken as clasp takes them without a theory propagator: one no rule derives is free, the theory's terms are ignored"
            );
        }
        if opts.models.is_some_and(|n| n != 0)
            && program.minimize().next().is_some()
            && opts.opt_mode == OptMode::Opt
        {
            log::warn!("#models not 0: optimality of last model not guaranteed");
        }
        let t0 = Instant::now();
        let table = if matches!(opts.enum_mode, EnumMode::Brave | EnumMode::Cautious) {
            ShownTable::new(&program.with_atomic_outputs())
        } else {
            ShownTable::new(program)
        };
        printer.begin_call(table);
        let res = solve(program, &opts, &mut printer);
        printer.end_call();
        solve_time += t0.elapsed().as_secs_f64();
        calls += 1;
        match res {
            Ok(o) => {
                let stopped = o.interrupted.is_some();
                earlier_models += outcome.replace(o).map_or(0, |o| o.models);
                if stopped {
                    break;
                }
            }
            Err(e) => {
                drop(printer);
                return failed(&name, e);
            }
        }
    }
    let Some(mut o) = outcome else {
        return error(format!("{name}: no program in the input"));
    };
    o.earlier_models = earlier_models;
    drop(progress_line);
    summary(&mut printer, &opts, &o, calls, solve_time, start, &stop)
}

/// The thread that prints the progress line while the run goes on; dropped, it stops.
struct ProgressLine {
    progress: Arc<Progress>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl ProgressLine {
    fn start(progress: Arc<Progress>) -> Self {
        let p = Arc::clone(&progress);
        let thread = std::thread::spawn(move || {
            let mut next = Instant::now() + std::time::Duration::from_secs(1);
            while !p.is_done() {
                std::thread::sleep(std::time::Duration::from_millis(50));
                if Instant::now() >= next {
                    log::info!("{}", p.line());
                    next += std::time::Duration::from_secs(1);
                }
            }
        });
        ProgressLine { progress, thread: Some(thread) }
    }
}

impl Drop for ProgressLine {
    fn drop(&mut self) {
        self.progress.finish();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Malformed input: FILE:LINE:COLUMN and what is wrong, exit 65; with a hint where the input
/// is a logic program's text (not yet ground).
fn malformed(inputs: &Inputs, e: &ReadError) -> Exit {
    let (name, line) = inputs.locate(e.line);
    let hint = if looks_like_asp_text(&inputs.bytes) {
        "\n*** Info : (yasmin): the input looks like a logic program's text: yasmin reads ground programs (aspif, smodels); ground it first, e.g. `gringo p.lp | yasmin` or `python -m clingo --mode=gringo p.lp | yasmin`"
    } else {
        ""
    };
    error(format!("{name}:{line}:{}: {}{hint}", e.column, e.message))
}

/// Whether `input` reads like ASP source text rather than gringo's output: its first statement
/// starts with a letter, `#`, `%`, `{` or `:-` and some line ends with a period.
fn looks_like_asp_text(input: &[u8]) -> bool {
    let text = String::from_utf8_lossy(&input[..input.len().min(1 << 16)]);
    let first = text.trim_start();
    let starts =
        first.starts_with(|c: char| c.is_ascii_alphabetic() || "#%{".contains(c)) || first.starts_with(":-");
    starts && !first.starts_with("asp ") && text.lines().any(|l| l.trim_end().ends_with('.'))
}

/// Prints the result and the summary (clasp counts a call where the run stopped before one).
fn summary<W: Write>(
    printer: &mut Printer<W>,
    opts: &SolveOptions,
    o: &Outcome,
    calls: u32,
    solve_time: f64,
    start: Instant,
    stop: &StopToken,
) -> Exit {
    stop.enter(Phase::Output);
    if o.interrupted == Some(Stop::Signal) {
        eprintln!("*** Info : (yasmin): INTERRUPTED by signal!");
    }
    let search = &opts.search;
    let config = format!(
        "learning: {}, heuristic: {}, restarts: {}, deletion: {}",
        search.learning, search.heuristic, search.restarts, search.deletion
    );
    let info = RunInfo {
        calls: calls.max(1),
        total: start.elapsed().as_secs_f64(),
        solve: solve_time,
        cpu: cpu_seconds(),
        config,
    };
    if let Err(e) = printer.finish(o, &info) {
        return failed("stdout", SolveError::Output(e));
    }
    if matches!(opts.enum_mode, EnumMode::Brave | EnumMode::Cautious) && o.interrupted.is_some() {
        log::warn!("consequences are incomplete: the search was interrupted");
    }
    // Where the stop came, and how late (scripts/limit_bench.py reads this line).
    if let Some((at, phase)) = stop.fired() {
        let (why, since) = match o.interrupted {
            Some(Stop::TimeLimit) => ("time limit", stop.deadline().unwrap_or(at)),
            Some(Stop::SolveLimit) => ("solve limit", at),
            _ => ("signal", at),
        };
        let seen = stop.seen().unwrap_or(at);
        log::info!(
            "{why} during {}: noticed {:.3} s after it; the summary printed {:.3} s after that",
            phase.name(),
            seen.duration_since(since).as_secs_f64(),
            seen.elapsed().as_secs_f64()
        );
    }
    Exit::Code(o.exit_code())
}

/// `--parse-only`: read every step and report sizes and speed (the reader benchmark).
fn parse_only(reader: &mut Reader<'_>, inputs: &Inputs, start: Instant) -> Exit {
    let t0 = Instant::now();
    let bytes = inputs.bytes.len();
    let name = inputs.title();
    let mut builder = ProgramBuilder::new(bytes);
    while reader.has_step() {
        if let Err(e) = reader.read_step(&mut builder) {
            return malformed(inputs, &e);
        }
    }
    let read = t0.elapsed().as_secs_f64();
    let p = builder.program();
    let mb = bytes as f64 / 1e6;
    println!(
        "{name}: {:?}, {mb:.2} MB read in {read:.3} s ({:.1} MB/s, {:.3} s with loading): {} atoms, {} rules, {} other statements, {} steps",
        reader.format(),
        mb / read.max(1e-9),
        start.elapsed().as_secs_f64(),
        p.atom_count(),
        p.rule_count(),
        p.statements().count(),
        p.steps
    );
    Exit::Code(0)
}

/// `--pre`: print the program as read, in aspif or smodels.
fn pre(reader: &mut Reader<'_>, fmt: ProgramFormat, inputs: &Inputs) -> Exit {
    let mut builder = ProgramBuilder::new(0);
    while reader.has_step() {
        if let Err(e) = reader.read_step(&mut builder) {
            return malformed(inputs, &e);
        }
    }
    let name = inputs.title();
    let program = builder.into_program();
    let mut out = PipeWatch { out: std::io::stdout().lock(), closed: false };
    let res = match fmt {
        ProgramFormat::Aspif => program.emit(&mut AspifWriter::new(&mut out) as &mut dyn ProgramSink),
        ProgramFormat::Smodels => {
            let mut w = SmodelsWriter::new(&mut out, program.atom_count() + 1);
            program.emit(&mut w)
        }
    };
    match res {
        Ok(()) => Exit::Code(0),
        // As clasp: the reader has gone (`--pre | head`), and the process ends by SIGPIPE.
        Err(_) if out.closed => Exit::BrokenPipe,
        Err(e) => error(format!("{name}: {e}")),
    }
}

/// An output that remembers whether its reader went away: the program writers' errors are text.
struct PipeWatch<W: Write> {
    out: W,
    closed: bool,
}

impl<W: Write> PipeWatch<W> {
    fn watch<T>(&mut self, r: std::io::Result<T>) -> std::io::Result<T> {
        if r.as_ref().is_err_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) {
            self.closed = true;
        }
        r
    }
}

impl<W: Write> Write for PipeWatch<W> {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        let r = self.out.write(data);
        self.watch(r)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let r = self.out.flush();
        self.watch(r)
    }
}
