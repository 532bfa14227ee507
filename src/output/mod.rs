//! What yasmin prints: clasp's text format (`--outf=0`), the competition format (`--outf=1`)
//! and clasp's JSON (`--outf=2`), with clasp's result lines and summary.

mod atoms;
mod json;
mod names;
pub mod paced;

pub use crate::program::ShownTable;
pub use atoms::AtomFormat;

use crate::solve::config::EnumMode;
use crate::solve::{ModelEvent, Outcome, Report, Status};
use crate::stats;
use crate::stop::Stop;
use std::io::Write;
use std::time::Instant;

use json::json_str;
use names::Names;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Competition,
    Json,
    /// clasp's `--outf=3`: nothing; the exit code says the result.
    Nothing,
}

/// clasp's quiet levels: print all (0), the last (1) or no (2) models, optimization values and
/// call summaries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quiet {
    pub models: u8,
    pub costs: u8,
    pub calls: u8,
}

impl Quiet {
    /// clasp's default: every model and optimization value, no call summaries.
    pub const DEFAULT: Quiet = Quiet { models: 0, costs: 0, calls: 2 };
}

/// How much the printer says: the format, the quiet levels, clasp's verbosity (0: only models
/// and the result) and the statistics' level (0: none, 1: the run's, 2: also each search's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    pub format: Format,
    pub quiet: Quiet,
    pub verbose: u8,
    pub stats: u8,
    /// How the text and competition formats print a model's atoms (`--out-atomf`, `--out-ifs`).
    pub atoms: AtomFormat,
    /// `--out-hide-aux`: shown atoms whose names begin with `_` are not printed.
    pub hide_aux: bool,
}

/// Run-level facts printed with the summary.
pub struct RunInfo {
    pub calls: u32,
    pub total: f64,
    pub solve: f64,
    pub cpu: f64,
    pub config: String,
}

/// The time after a model, in seconds, from which the next one is flushed as soon as printed.
const PAUSE: f64 = 0.02;

/// A model as the formats print it: its number, time, shown strings, costs and consequence
/// counts.
#[derive(Default)]
struct Printed {
    number: u64,
    t: f64,
    shown: Names,
    costs: Option<Vec<i64>>,
    consequences: Option<(u64, u64)>,
}

pub struct Printer<W: Write> {
    out: W,
    format: Format,
    atoms: AtomFormat,
    hide_aux: bool,
    quiet: Quiet,
    verbose: u8,
    stats: u8,
    start: Instant,
    /// Quiet level 1: the call's last model, printed (rendered only then) when the call ends.
    pending: Option<Printed>,
    shown: Option<ShownTable>,
    /// The latest model (competition output prints only it).
    last_model: Option<Printed>,
    /// Reused from model to model: the model being printed, and its text.
    printed: Printed,
    text: Vec<u8>,
    witnesses: u64,
    calls: u32,
    last_model_time: f64,
    /// Competition output prints only the last answer's number and time.
    last_answer: Option<(u64, f64)>,
}

impl Printed {
    /// Adds a shown atom's name, unless `hide_aux` hides it (a name that begins with `_`).
    fn push_unless(&mut self, name: &[u8], hide_aux: bool) {
        if !(hide_aux && name.starts_with(b"_")) {
            self.shown.push(name);
        }
    }
}

impl<W: Write> Printer<W> {
    pub fn new(out: W, shape: Shape, start: Instant) -> Self {
        Printer {
            out,
            format: shape.format,
            atoms: shape.atoms,
            hide_aux: shape.hide_aux,
            quiet: shape.quiet,
            verbose: shape.verbose,
            stats: shape.stats,
            start,
            pending: None,
            shown: None,
            last_model: None,
            printed: Printed::default(),
            text: Vec::new(),
            witnesses: 0,
            calls: 0,
            last_model_time: 0.0,
            last_answer: None,
        }
    }

    fn comment(&self) -> &'static str {
        if self.format == Format::Competition { "% " } else { "" }
    }

    fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// The opening lines: version and input.
    pub fn begin(&mut self, input: &str) {
        let version = concat!("yasmin version ", env!("CARGO_PKG_VERSION"));
        let _ = match self.format {
            Format::Json => write!(
                self.out,
                "{{\n  \"Solver\": {},\n  \"Input\": [\n    {}\n  ],\n  \"Call\": [",
                json_str(version.as_bytes()),
                json_str(input.as_bytes())
            ),
            Format::Nothing => Ok(()),
            Format::Text if self.verbose == 0 => Ok(()),
            _ => {
                let c = self.comment();
                // clasp shortens long paths to their last 38 characters.
                let from = match input.char_indices().rev().nth(37) {
                    Some((i, _)) if input.chars().count() > 40 => format!("...{}", &input[i..]),
                    _ => input.to_string(),
                };
                write!(self.out, "{c}{version}\n{c}Reading from {from}\n")
            }
        };
    }

    /// Starts one solve call (one step of the input).
    pub fn begin_call(&mut self, shown: ShownTable) {
        self.shown = Some(shown);
        self.calls += 1;
        self.witnesses = 0;
        let t = self.elapsed();
        let _ = match self.format {
            Format::Json => {
                write!(self.out, "{}\n    {{\n      \"Start\": {t:.3}", if self.calls > 1 { "," } else { "" })
            }
            Format::Nothing => Ok(()),
            Format::Text if self.verbose == 0 => Ok(()),
            _ => writeln!(self.out, "{}Solving...", self.comment()),
        };
        let _ = self.out.flush();
    }

    /// Writes out what is buffered.
    pub fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }

    pub fn end_call(&mut self) {
        // Quiet level 1: the call's last model, with what levels 1 or below ask for.
        if let Some(m) = self.pending.take() {
            let (q, json) = (self.quiet, self.format == Format::Json);
            let mut text = Vec::new();
            if json {
                text = self.json_model(&m).into_bytes();
            } else {
                self.text_model(&m, q.models <= 1, q.costs <= 1, &mut text);
            }
            let _ = self.out.write_all(&text);
            self.witnesses += u64::from(json);
        }
        if self.format == Format::Json {
            let t = self.elapsed();
            let close = if self.witnesses > 0 { "\n      ]" } else { "" };
            let _ = write!(self.out, "{close},\n      \"Stop\": {t:.3}\n    }}");
        }
    }

    fn costs_line(costs: &[i64]) -> String {
        costs.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
    }

    /// The result and summary lines, and the exit code's meaning in words.
    pub fn finish(&mut self, o: &Outcome, info: &RunInfo) -> std::io::Result<()> {
        match self.format {
            Format::Json => self.finish_json(o, info)?,
            Format::Text | Format::Competition => self.finish_text(o, info)?,
            Format::Nothing => {}
        }
        self.out.flush()
    }

    fn finish_text(&mut self, o: &Outcome, info: &RunInfo) -> std::io::Result<()> {
        let stats = self.stats > 0;
        let c = self.comment();
        let mut s = String::new();
        if self.format == Format::Competition {
            if let Some((number, t)) = self.last_answer {
                s.push_str(&format!("% Answer: {number} (Time: {})\n", AnswerTime(t)));
            }
            match (&self.last_model, o.status()) {
                (Some(Printed { shown, costs, .. }), Status::Satisfiable | Status::OptimumFound) => {
                    let mut line = Vec::new();
                    self.atoms.write_line(shown.iter(), &mut line);
                    s.push_str("ANSWER\n");
                    s.push_str(&String::from_utf8_lossy(&line));
                    if let Some(costs) = costs {
                        s.push_str(&format!("COST {}\n", Self::costs_line(costs)));
                    }
                    if o.status() == Status::OptimumFound {
                        s.push_str("OPTIMUM\n");
                    }
                }
                (_, Status::Unsatisfiable) => s.push_str("INCONSISTENT\n"),
                _ => s.push_str("UNKNOWN\n"),
            }
        } else {
            s.push_str(match o.status() {
                Status::Satisfiable => "SATISFIABLE\n",
                Status::Unsatisfiable => "UNSATISFIABLE\n",
                Status::Unknown => "UNKNOWN\n",
                Status::OptimumFound => "OPTIMUM FOUND\n",
            });
        }
        // Verbosity 0: the result alone, unless statistics are asked for.
        if self.verbose == 0 && self.format == Format::Text && !stats {
            return self.out.write_all(s.as_bytes());
        }
        let more = if o.exhausted { "" } else { "+" };
        // clasp pads keys to 12 columns, 14 in competition output.
        let width = if self.format == Format::Competition { 14 } else { 12 };
        let kv = |key: &str, value: String| format!("{c}{key:<width$} : {value}\n");
        s.push_str(&format!("{c}\n"));
        match o.interrupted {
            Some(Stop::TimeLimit) => s.push_str(&kv("TIME LIMIT", "1".into())),
            Some(Stop::Signal | Stop::Cancelled) => s.push_str(&kv("INTERRUPTED", "1".into())),
            // A solve limit is no interruption: clasp prints nothing for it.
            Some(Stop::SolveLimit) | None => {}
        }
        s.push_str(&kv("Models", format!("{}{more}", o.models + o.earlier_models)));
        // clasp's order: the consequences' mode, the optimum, then the counts.
        if let Some((mode, _, _)) = o.consequences {
            let name = if mode == EnumMode::Brave { "  Brave" } else { "  Cautious" };
            s.push_str(&kv(name, "yes".into()));
        }
        if let Some(costs) = &o.costs {
            let opt = if o.optimum_proven { "yes" } else { "unknown" };
            s.push_str(&kv("  Optimum", opt.into()));
            if o.enumerated_optimal && o.optimal_models > 1 {
                s.push_str(&kv("  Optimal", o.optimal_models.to_string()));
            }
            if !o.enumerated_costs {
                s.push_str(&kv("Optimization", Self::costs_line(costs)));
            }
        }
        if let Some((_, _, n)) = o.consequences {
            s.push_str(&kv("Consequences", n.to_string()));
        }
        s.push_str(&kv("Calls", info.calls.to_string()));
        let first = o.first_model.unwrap_or(0.0);
        let unsat = if o.exhausted { (info.solve - self.last_model_time).max(0.0) } else { 0.0 };
        s.push_str(&kv(
            "Time",
            format!(
                "{:.3}s (Solving: {:.2}s 1st Model: {:.2}s Unsat: {:.2}s)",
                info.total, info.solve, first, unsat
            ),
        ));
        s.push_str(&kv("CPU Time", format!("{:.3}s", info.cpu)));
        match o.threads {
            Some((threads, Some(winner))) => {
                s.push_str(&kv("Threads", format!("{threads:<8} (Winner: {winner})")))
            }
            Some((threads, None)) => s.push_str(&kv("Threads", threads.to_string())),
            None => {}
        }
        if stats {
            // clasp's sections, a blank line before each.
            let mut section = None;
            for row in stats::rows(&Self::stats_source(o, info), info.solve) {
                if section.replace(row.section) != Some(row.section) {
                    s.push_str(&format!("{c}\n"));
                }
                let v = row.value.text();
                match row.rate {
                    Some(r) => s.push_str(&kv(row.label, format!("{v:<8} (per second: {r:.0})"))),
                    None => s.push_str(&kv(row.label, v)),
                }
            }
            for (i, st) in o.searches.iter().enumerate().filter(|_| self.stats > 1) {
                let counters: Vec<String> =
                    stats::COUNTERS.iter().map(|c| format!("{} {}", c.label, (c.get)(st))).collect();
                s.push_str(&kv(&format!("Search {i}"), counters.join(", ")));
            }
        }
        self.out.write_all(s.as_bytes())
    }

    /// What the statistics are made from.
    fn stats_source<'o>(o: &'o Outcome, info: &'o RunInfo) -> stats::Source<'o> {
        stats::Source { stats: &o.stats, problem: &o.problem_size, engine: o.engine, config: &info.config }
    }
}

impl<W: Write> Report for Printer<W> {
    /// Whether some model is printed, each one or the last (a quiet level below 2), or kept for
    /// the end (competition output).
    fn wants_models(&self) -> bool {
        match self.format {
            Format::Text => self.quiet.models < 2 || self.quiet.costs < 2,
            Format::Json => self.quiet.models < 2,
            Format::Competition => true,
            Format::Nothing => false,
        }
    }

    /// Models only counted (`-q -n 0`): the last of them came about now, for `Unsat` (clasp's:
    /// the time after the last model).
    fn counted(&mut self, _before: u64, _k: u64) -> std::io::Result<()> {
        self.last_model_time = self.elapsed();
        Ok(())
    }

    fn model(&mut self, ev: &ModelEvent<'_>) -> std::io::Result<()> {
        let t = self.elapsed();
        // A model after a pause goes out at once; one of a burst waits in the writer's buffer
        // (`paced.rs` writes it out soon after).
        let paused = t - self.last_model_time >= PAUSE;
        self.last_model_time = t;
        // Competition output prints the last model at the end; the others print each model,
        // or the last (quiet level 1), or none.
        let needed = self.format == Format::Competition || self.quiet.models < 2;
        let mut m = std::mem::take(&mut self.printed);
        let hide = self.hide_aux;
        m.shown.clear();
        match (&self.shown, ev.selected) {
            _ if !needed => {}
            (Some(table), Some(sel)) => table.each_selected(sel, |s| m.push_unless(s, hide)),
            (Some(table), None) => table.each_shown(ev.atoms, |s| m.push_unless(s, hide)),
            (None, _) => {}
        }
        (m.number, m.t, m.consequences) = (ev.number, t, ev.consequences);
        m.costs = ev.costs.map(<[i64]>::to_vec);
        let q = self.quiet;
        let mut text = std::mem::take(&mut self.text);
        text.clear();
        let keep = match self.format {
            // clingo's quiet levels: a model's `Answer:` line goes with whatever of it is printed,
            // its atoms (models level 0) and its optimization line (costs level 0); the call's
            // last model prints when it ends (`end_call`).
            Format::Text => {
                if q.models == 0 || q.costs == 0 {
                    self.text_model(&m, q.models == 0, q.costs == 0, &mut text);
                }
                q.models == 1 || q.costs == 1
            }
            // A JSON witness is never split: the models level decides.
            Format::Json => {
                if q.models == 0 {
                    text = self.json_model(&m).into_bytes();
                }
                q.models == 1
            }
            Format::Competition => {
                self.last_answer = Some((m.number, t));
                // The model before becomes the next one's buffers.
                self.printed = self.last_model.replace(m).unwrap_or_default();
                self.text = text;
                return Ok(());
            }
            Format::Nothing => false,
        };
        if keep {
            self.pending = Some(m);
        } else {
            self.printed = m;
        }
        let written = if text.is_empty() {
            Ok(())
        } else {
            self.witnesses += u64::from(self.format == Format::Json);
            self.out.write_all(&text).and_then(|()| if paused { self.out.flush() } else { Ok(()) })
        };
        self.text = text;
        written
    }
}

/// A model's time as its `Answer:` line shows it, in seconds to the millisecond, written from
/// integer milliseconds (a float's formatting took a tenth of the time of printing `{a(1..20)}`).
struct AnswerTime(f64);

impl std::fmt::Display for AnswerTime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = (self.0.max(0.0) * 1000.0).round() as u64;
        write!(f, "{}.{:03}s", ms / 1000, ms % 1000)
    }
}

impl<W: Write> Printer<W> {
    /// A model's lines in clasp's text format: `Answer:` (not at verbosity 0), then as asked its
    /// atoms with its consequences, and its optimization line.
    /// Written to `s`, which is a `Vec` (writing to it cannot fail).
    fn text_model(&self, m: &Printed, atoms: bool, costs: bool, s: &mut Vec<u8>) {
        if self.verbose > 0 {
            let _ = writeln!(s, "Answer: {} (Time: {})", m.number, AnswerTime(m.t));
        }
        if atoms {
            self.atoms.write_line(m.shown.iter(), s);
            if let Some((lo, hi)) = m.consequences {
                let _ = writeln!(s, "Consequences: [{lo};{hi}]");
            }
        }
        if let Some(c) = m.costs.as_deref().filter(|_| costs) {
            let _ = writeln!(s, "Optimization: {}", Self::costs_line(c));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::AnswerTime;

    /// Seconds to the millisecond, as `{:.3}` writes them.
    #[test]
    fn an_answers_time_shows_milliseconds() {
        for t in [0.0, 0.0004, 0.0126, 1.5, 12.3456, 61.0] {
            assert_eq!(AnswerTime(t).to_string(), format!("{t:.3}s"), "{t}");
        }
    }
}
