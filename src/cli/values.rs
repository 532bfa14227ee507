//! The values of clasp's options as the command line writes them (`N[,split]`, `TYPE[,LBD[,SIZE]]`,
//! quiet levels, restart schedules, optimization bounds, ...), parsed into the library's types.

use clap::ValueEnum;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use yasmin::nogoods::{ExtendedRules, SatPrepro};
use yasmin::output::Quiet;
use yasmin::solve::config::{
    BERKMIN_WINDOW, Backend, Decisions, Deletion, Distribute, DomMod, DomModifier, EnumMode, GpuMode,
    GpuRounds, Heuristic, LbdUpdate, Learning, LookKind, Lookahead, OptMode, OptStrategy, ProjectMode,
    Restarts, Schedule, SignDef, Strengthen, StrengthenAntes, Symmetry,
};
use yasmin::stop::SolveLimit;

/// The names a library value may be given by (its `NAMES`).
pub trait NamedValues: std::str::FromStr<Err = String> + Clone + Send + Sync + 'static {
    fn names() -> &'static [&'static str];
}

macro_rules! named_values {
    ($($t:ty),*) => { $(impl NamedValues for $t { fn names() -> &'static [&'static str] { <$t>::NAMES } })* };
}
named_values!(
    Backend, Learning, Heuristic, Decisions, Deletion, GpuMode, GpuRounds, OptMode, EnumMode, SignDef,
    Symmetry
);

/// A clap parser for one of the library's named values: its names are the possible values.
pub(super) fn named<T: NamedValues>() -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(T::names()).map(|s| s.parse::<T>().expect("one of the names"))
}

/// `--enum-mode`: the modes by name, and clasp's `query`, another algorithm for the cautious
/// consequences, as cautious.
pub(super) fn parse_enum_mode(s: &str) -> Result<EnumMode, String> {
    if s.eq_ignore_ascii_case("query") {
        return Ok(EnumMode::Cautious);
    }
    s.parse::<EnumMode>().map_err(|e| format!("{e}, query"))
}

/// `--project[=MODE]`: a projection mode, or no (clasp's `--project=no`: off).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Project(pub Option<ProjectMode>);

/// clasp's `--project=MODE[,BT]` (BT, from 0 to 3, tunes clasp's backtracking over the
/// projection: the answers are the same, so it is taken and not used), a number from 0 to 7
/// (clasp's bits: 0 off, else auto), or `no`.
pub(super) fn parse_project(s: &str) -> Result<Project, String> {
    let lower = s.to_ascii_lowercase();
    let (mode, bt) = lower.split_once(',').map_or((lower.as_str(), None), |(m, b)| (m, Some(b)));
    let expected = || format!("'{s}': expected auto, show or project[,BT] (BT from 0 to 3), no, or 0 to 7");
    match (mode, bt) {
        ("no", None) | ("0", None) => Ok(Project(None)),
        (n, None) if matches!(n.parse::<u8>(), Ok(1..=7)) => Ok(Project(Some(ProjectMode::Auto))),
        (m, bt) if bt.is_none_or(|b| matches!(b.parse::<u8>(), Ok(0..=3))) => {
            m.parse::<ProjectMode>().map(|m| Project(Some(m))).map_err(|_| expected())
        }
        _ => Err(expected()),
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PreFormat {
    Aspif,
    Smodels,
}
/// `--distribute`: what the searches of a parallel run share (`None`: nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Distribution(pub Option<Distribute>);

pub(super) fn parse_distribute(s: &str) -> Result<Distribution, String> {
    let lower = s.to_ascii_lowercase();
    let mut parts = lower.split(',').peekable();
    let kind = parts.next().unwrap_or("");
    // clasp's mode, global or local (the searches a nogood goes to): yasmin's exchange reaches
    // every search, so both are global.
    parts.next_if(|m| matches!(*m, "global" | "local"));
    let mut d = match kind {
        "no" if lower == "no" => return Ok(Distribution(None)),
        "all" | "conflict" | "loop" => Distribute::DEFAULT,
        "short" => Distribute { lbd: 0, size: 3 },
        _ => {
            return Err(format!(
                "'{s}': expected no, or all, conflict, loop or short[,global|local][,LBD[,SIZE]]"
            ));
        }
    };
    let num = |p: Option<&str>, what: &str| -> Result<Option<u32>, String> {
        p.map(|x| match x {
            // clasp's -1: no bound.
            "-1" => Ok(u32::MAX),
            x => {
                x.parse::<u32>().map_err(|_| format!("'{s}': expected a number for the {what}, found '{x}'"))
            }
        })
        .transpose()
    };
    if let Some(lbd) = num(parts.next(), "largest LBD")? {
        d.lbd = lbd;
    }
    if let Some(size) = num(parts.next(), "largest length")? {
        d.size = size;
    }
    if parts.next().is_some() {
        return Err(format!("'{s}': expected TYPE[,global|local][,LBD[,SIZE]]"));
    }
    Ok(Distribution(Some(d)))
}

/// `--parallel-mode`: how many searches, and whether they divide the space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParallelMode {
    pub threads: u32,
    pub split: bool,
}

/// clasp's `N[,compete|split]`, N from 1 to 64.
pub(super) fn parse_threads(s: &str) -> Result<ParallelMode, String> {
    let (n, mode) = s.split_once(',').unwrap_or((s, "compete"));
    let threads = n.parse::<u32>().ok().filter(|n| (1..=64).contains(n)).ok_or_else(|| {
        format!(
            "'{s}': expected a number of threads from 1 to 64, optionally followed by ',compete' or ',split'"
        )
    })?;
    match mode.to_ascii_lowercase().as_str() {
        "compete" => Ok(ParallelMode { threads, split: false }),
        "split" => Ok(ParallelMode { threads, split: true }),
        _ => Err(format!("'{s}': expected the mode compete or split, found '{mode}'")),
    }
}

/// `--gpu-devices`: CUDA device ordinals, `0,1` or `all` (`None`); a device given twice runs
/// two farms (or takes two shares of the searches).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuDevices(pub Option<Vec<u32>>);

pub(super) fn parse_gpu_devices(s: &str) -> Result<GpuDevices, String> {
    if s == "all" {
        return Ok(GpuDevices(None));
    }
    let mut list = Vec::new();
    for x in s.split(',') {
        let d = x
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|&d| d < 1024)
            .ok_or_else(|| format!("'{s}': expected all, or device numbers separated by commas (0,1)"))?;
        list.push(d);
    }
    Ok(GpuDevices(Some(list)))
}

/// `--gpu-block-threads`: a block size the cooperative kernel is tried with.
pub(super) fn block_threads(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(n @ (128 | 256 | 512 | 1024)) => Ok(n),
        _ => Err(format!("expected 1024, 512, 256 or 128, found '{s}'")),
    }
}

/// clasp's `--quiet=M[,C[,T]]` (`-q` alone is `2,2,2`).
pub(super) fn parse_quiet(s: &str) -> Result<Quiet, String> {
    let levels: Vec<u8> = s
        .split(',')
        .map(|x| x.parse::<u8>().ok().filter(|&n| n <= 2))
        .collect::<Option<_>>()
        .filter(|l: &Vec<u8>| (1..=3).contains(&l.len()))
        .ok_or_else(|| {
            format!("'{s}': expected <models>[,<costs>][,<calls>], each 0 (all), 1 (last) or 2 (none)")
        })?;
    Ok(Quiet {
        models: levels[0],
        costs: *levels.get(1).unwrap_or(&levels[0]),
        calls: *levels.get(2).unwrap_or(&2),
    })
}

/// clasp's `--stats=N[,T]`: the level (1 basic, 2 also each search's); T, the tester's level,
/// is clasp's for its disjunctive checker and taken but not used.
pub(super) fn parse_stats(s: &str) -> Result<u8, String> {
    let (n, tester) = s.split_once(',').unwrap_or((s, "0"));
    match (n.parse::<u8>(), tester.parse::<u8>()) {
        (Ok(n @ 0..=2), Ok(0..=2)) => Ok(n),
        _ => Err(format!("'{s}': expected a level 0, 1 or 2 (and a tester's level 0 to 2)")),
    }
}

/// clasp's `--solve-limit=N[,M]`: conflicts and restarts a search may make, each a number,
/// `umax` or -1 (no limit); restarts unlimited if not given.
pub(super) fn parse_solve_limit(s: &str) -> Result<SolveLimit, String> {
    let count = |x: &str| match x {
        "umax" | "-1" => Some(u64::MAX),
        _ => x.parse::<u64>().ok(),
    };
    let (n, m) = s.split_once(',').unwrap_or((s, "umax"));
    match (count(n), count(m)) {
        (Some(conflicts), Some(restarts)) => Ok(SolveLimit { conflicts, restarts }),
        _ => Err(format!("'{s}': expected N[,M], conflicts and restarts (a number, umax or -1)")),
    }
}

/// clasp's `--opt-mode=MODE[,BOUND...]`: the mode, and an initial bound per priority level,
/// highest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptModeArg {
    pub mode: OptMode,
    pub bound: Option<Vec<i64>>,
}

pub(super) fn parse_opt_mode(s: &str) -> Result<OptModeArg, String> {
    let mut parts = s.split(',');
    let mode = parts.next().unwrap_or("").parse::<OptMode>()?;
    let bound: Vec<i64> = parts
        .map(|x| {
            x.trim().parse::<i64>().map_err(|_| format!("'{s}': expected a number as a bound, found '{x}'"))
        })
        .collect::<Result<_, _>>()?;
    Ok(OptModeArg { mode, bound: (!bound.is_empty()).then_some(bound) })
}

/// What yasmin does with a clasp option value it takes but cannot honour exactly: the nearest
/// thing it has, and a warning that says so.
#[derive(Clone, Debug, PartialEq)]
pub struct Nearest<T> {
    pub value: T,
    pub warning: Option<String>,
}

fn exact<T>(value: T) -> Nearest<T> {
    Nearest { value, warning: None }
}

fn nearest<T>(value: T, warning: String) -> Nearest<T> {
    Nearest { value, warning: Some(warning) }
}

/// clasp's `--trans-ext=MODE`: `no` keeps every weight and cardinality constraint native;
/// `integ` (yasmin's default) translates integrity constraints over counts into counters,
/// `dynamic` (clasp's default configurations') also spells out small weight bodies. clasp's other
/// modes (`all`, `choice`, `card`, `weight`, `scc`) translate the rest of the extended bodies and
/// heads too, which yasmin keeps native: they run as `dynamic`, with a warning (a translation
/// never changes the answers).
pub(super) fn parse_trans_ext(s: &str) -> Result<Nearest<ExtendedRules>, String> {
    match s.to_ascii_lowercase().as_str() {
        "no" => Ok(exact(ExtendedRules::Native)),
        "integ" => Ok(exact(ExtendedRules::Integrity)),
        "dynamic" => Ok(exact(ExtendedRules::Dynamic)),
        m @ ("all" | "choice" | "card" | "weight" | "scc") => Ok(nearest(
            ExtendedRules::Dynamic,
            format!(
                "--trans-ext={m}: yasmin translates small weight bodies and integrity constraints over counts only (as dynamic)"
            ),
        )),
        _ => Err(format!("'{s}': expected no, dynamic, integ, all, choice, card, weight or scc")),
    }
}

/// clasp's `--opt-strategy=bb[,TACTIC]|usc[,RELAX][,OPTS]`: branch and bound descending
/// linearly and lexicographically (clasp's `bb,lin`, its default), or core-guided by OLL (clasp's
/// `usc,oll`). The other tactics find the same optima by other paths: they run as these, with a
/// warning.
pub(super) fn parse_opt_strategy(s: &str) -> Result<Nearest<OptStrategy>, String> {
    let lower = s.to_ascii_lowercase();
    let parts: Vec<&str> = lower.split(',').collect();
    match parts.as_slice() {
        ["bb"] | ["bb", "lin" | "0"] => Ok(exact(OptStrategy::Bb)),
        ["bb", t @ ("hier" | "inc" | "dec" | "1" | "2" | "3")] => Ok(nearest(
            OptStrategy::Bb,
            format!("--opt-strategy=bb,{t}: yasmin descends linearly (bb,lin); the optimum is the same"),
        )),
        ["usc", rest @ ..] => {
            let (relax, opts) = match rest {
                // K's cardinality limit.
                ["k", n, o @ ..] if n.parse::<u32>().is_ok() => ("k", o),
                [r @ ("oll" | "one" | "k" | "pmres"), o @ ..] => (*r, o),
                _ => ("oll", rest),
            };
            // Tactics by name, or as clasp's mask: 1 disjoint, 2 succinct, 4 stratify.
            let mut mask = 0u8;
            for o in opts {
                mask |= match *o {
                    "disjoint" => 1,
                    "succinct" => 2,
                    "stratify" => 4,
                    m => match m.parse::<u8>() {
                        Ok(m) if m < 8 => m,
                        _ => {
                            return Err(format!(
                                "'{s}': unknown usc option '{m}' (expected disjoint, succinct, stratify or 0..7)"
                            ));
                        }
                    },
                };
            }
            let mut why = Vec::new();
            if relax != "oll" {
                why.push(format!("cores are relaxed as by oll, not {relax}"));
            }
            if mask & 2 != 0 {
                why.push("succinct is not honoured".to_string());
            }
            let usc = OptStrategy::Usc { disjoint: mask & 1 != 0, stratify: mask & 4 != 0 };
            Ok(match why.is_empty() {
                true => exact(usc),
                false => nearest(usc, format!("--opt-strategy={s}: {}", why.join("; "))),
            })
        }
        _ => Err(format!("'{s}': expected bb[,lin|hier|inc|dec] or usc[,oll|one|k|pmres][,OPTS]")),
    }
}

/// `--heuristic`: yasmin's rankings (activity, occurrence, jw), or clasp's names mapped onto them
/// (the decision heuristic never changes the answer sets, only the order they are found in): the
/// ranking, its decay, and whether every decision is lookahead's (clasp's Unit).
pub(super) fn parse_heuristic(s: &str) -> Result<Nearest<(Heuristic, Option<f64>, bool)>, String> {
    if let Ok(h) = s.parse::<Heuristic>() {
        return Ok(exact((h, None, false)));
    }
    let lower = s.to_ascii_lowercase();
    let (name, arg) = lower.split_once(',').unwrap_or((&lower, ""));
    let n = match arg {
        "" => None,
        n => Some(n.parse::<u32>().map_err(|_| format!("'{s}': expected a number after '{name},'"))?),
    };
    // Vsids and Domain take their decay in hundredths (clasp's Vsids,92).
    let decay = match (name, n) {
        ("vsids" | "domain", Some(n @ 1..=99)) => Some(f64::from(n) / 100.0),
        ("vsids" | "domain", Some(_)) => return Err(format!("'{s}': expected a decay from 1 to 99")),
        _ => None,
    };
    let like = |what: &str| format!("--heuristic={s}: {what}; deciding by activity (Vsids)");
    match name {
        "vsids" => Ok(exact((Heuristic::Activity, decay, false))),
        "domain" => Ok(exact((Heuristic::Domain, decay, false))),
        "berkmin" => match n {
            None | Some(BERKMIN_WINDOW) => Ok(exact((Heuristic::Berkmin, None, false))),
            Some(_) => Ok(nearest(
                (Heuristic::Berkmin, None, false),
                format!(
                    "--heuristic={s}: yasmin's BerkMin looks at the newest {BERKMIN_WINDOW} learned nogoods"
                ),
            )),
        },
        "vmtf" => Ok(nearest((Heuristic::Activity, None, false), like("yasmin has no VMTF heuristic"))),
        // Every decision by lookahead (--lookahead's kind, atom where it is not given), as
        // clasp's UnitHeuristic; activity where lookahead is off (forward learning).
        "unit" => Ok(exact((Heuristic::Activity, None, true))),
        "none" => Ok(nearest(
            (Heuristic::Occurrence, None, false),
            format!("--heuristic={s}: yasmin has no None heuristic; deciding by occurrences"),
        )),
        _ => Err(format!(
            "'{s}': expected activity, occurrence, jw, or clasp's Vsids, Berkmin, Vmtf, Domain, Unit or None[,N]"
        )),
    }
}

/// `--deletion`: yasmin's lbd, activity or no; clasp's algorithms (`basic`, `sort`, `ipSort`,
/// `ipHeap`, with their parameters) delete by LBD, with a warning; `0` is no.
pub(super) fn parse_deletion(s: &str) -> Result<Nearest<Deletion>, String> {
    if let Ok(d) = s.parse::<Deletion>() {
        return Ok(exact(d));
    }
    match s.split(',').next().unwrap_or("").to_ascii_lowercase().as_str() {
        "0" if s == "0" => Ok(exact(Deletion::No)),
        "basic" | "sort" | "ipsort" | "ipheap" => Ok(nearest(
            Deletion::Lbd,
            format!("--deletion={s}: yasmin deletes learned nogoods by LBD and age (lbd)"),
        )),
        _ => Err(format!(
            "'{s}': expected lbd, tiered, activity, no, or clasp's basic, sort, ipSort or ipHeap[,...]"
        )),
    }
}

/// `--restarts`: yasmin's and clasp's schedules ([`Schedule`]), clasp's repeat limit included;
/// clasp's dynamic `D,N,F` runs as the nearest schedule yasmin has, with a warning.
pub(super) fn parse_restarts(s: &str) -> Result<Nearest<Schedule>, String> {
    let parts: Vec<&str> = s.split(',').collect();
    match (parts[0].to_ascii_lowercase().as_str(), parts.len()) {
        // clasp's D,N,K,LIM adjusts K every LIM conflicts (0: never); yasmin keeps K.
        ("d", 4) => {
            let sequence: Restarts = parts[..3].join(",").parse()?;
            match parts[3].parse::<u64>() {
                Ok(0) => Ok(exact(sequence.into())),
                Ok(_) => Ok(nearest(
                    sequence.into(),
                    format!("--restarts={s}: yasmin does not adjust the margin K; restarting by {sequence}"),
                )),
                Err(_) => Err(format!("'{s}': expected a number of conflicts last")),
            }
        }
        _ => s.parse::<Schedule>().map(exact),
    }
}

/// `--lookahead`: clasp's `TYPE[,N]` (atom, body or hybrid; N fixpoints, 0 or none: no end), or
/// `no`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LookaheadArg(pub Option<Lookahead>);

pub(super) fn parse_lookahead(s: &str) -> Result<LookaheadArg, String> {
    if s.eq_ignore_ascii_case("no") || s == "0" {
        return Ok(LookaheadArg(None));
    }
    let (kind, n) = s.split_once(',').map_or((s, None), |(k, n)| (k, Some(n)));
    let expected = || format!("'{s}': expected no, or atom, body or hybrid[,N]");
    let kind = kind.parse::<LookKind>().map_err(|_| expected())?;
    let limit = n.map_or(Ok(0), |n| n.parse::<u32>().map_err(|_| expected()))?;
    Ok(LookaheadArg(Some(Lookahead { kind, limit })))
}

/// `--dom-mod`: clasp's `MOD[,PICK]` (MOD a name or 1 to 7; PICK `all`, a list of scc, hcc,
/// disj, opt and show, or their bits' sum from 0 to 31; all when absent), or `no` (also `0` and
/// `false` alone, as clasp reads them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DomModArg(pub Option<DomMod>);

pub(super) fn parse_dom_mod(s: &str) -> Result<DomModArg, String> {
    if matches!(s.to_ascii_lowercase().as_str(), "no" | "0" | "false") {
        return Ok(DomModArg(None));
    }
    let expected = || {
        format!(
            "'{s}': expected no, or MOD[,PICK]: MOD one of {} (or 1 to 7), PICK all or a list of {} (or 0 to 31)",
            DomModifier::NAMES.join(", "),
            DomMod::PICKS.join(", ")
        )
    };
    let mut words = s.split(',');
    let m = words.next().unwrap_or_default();
    let modifier = match m.parse::<usize>() {
        Ok(n @ 1..=7) => DomModifier::ALL[n - 1],
        Ok(_) => return Err(expected()),
        Err(_) => m.parse::<DomModifier>().map_err(|_| expected())?,
    };
    let mut pick = 0u8;
    for w in words {
        pick |= match w.parse::<u8>() {
            Ok(n @ 0..=31) => n,
            Ok(_) => return Err(expected()),
            Err(_) if w.eq_ignore_ascii_case("all") => 0,
            Err(_) => DomMod::PICKS
                .iter()
                .position(|p| p.eq_ignore_ascii_case(w))
                .map(|i| 1 << i)
                .ok_or_else(expected)?,
        };
    }
    Ok(DomModArg(Some(DomMod { modifier, pick })))
}

/// `--rand-freq=P`: a probability from 0 to 1, as clasp's.
pub(super) fn parse_rand_freq(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!("'{s}': expected a probability from 0 to 1")),
    }
}

/// `--update-lbd`: clasp's `MODE[,N]` (N from 0 to 127: updated nogoods of LBD at most N are
/// spared by the next deletion; 0 when absent), or `no`.
pub(super) fn parse_update_lbd(s: &str) -> Result<(LbdUpdate, u32), String> {
    let (mode, n) = s.split_once(',').map_or((s, None), |(m, n)| (m, Some(n)));
    let mode = mode
        .parse::<LbdUpdate>()
        .map_err(|_| format!("'{s}': expected no, or less, glucose or pseudo[,N]"))?;
    let n = match n {
        None => 0,
        Some(n) => match n.parse::<u32>() {
            Ok(n @ 0..=127) if mode != LbdUpdate::No => n,
            _ => return Err(format!("'{s}': N is a number from 0 to 127 after less, glucose or pseudo")),
        },
    };
    Ok((mode, n))
}

/// `--strengthen`: clasp's `MODE[,TYPE][,BUMP]` (MODE local or recursive; TYPE all, short or
/// binary, or 0 to 2; BUMP yes or no), or `no`. yasmin bumps the variables its analysis meets
/// whatever BUMP says: `no` gives a warning.
pub(super) fn parse_strengthen(s: &str) -> Result<Nearest<(Strengthen, StrengthenAntes)>, String> {
    let parts: Vec<&str> = s.split(',').collect();
    let expected = || format!("'{s}': expected no, or local or recursive[,all|short|binary][,yes|no]");
    let mode = parts[0].parse::<Strengthen>().map_err(|_| expected())?;
    if mode == Strengthen::No {
        return if parts.len() == 1 { Ok(exact((mode, StrengthenAntes::All))) } else { Err(expected()) };
    }
    // A TYPE by name, or by its number in clasp's order (0 all, 1 short, 2 binary).
    let antes = match parts.get(1) {
        None => StrengthenAntes::All,
        Some(t) => match t.parse::<usize>() {
            Ok(i) => *StrengthenAntes::ALL.get(i).ok_or_else(expected)?,
            Err(_) => t.parse().map_err(|_| expected())?,
        },
    };
    match parts.get(2).map(|b| b.to_ascii_lowercase()) {
        _ if parts.len() > 3 => Err(expected()),
        None => Ok(exact((mode, antes))),
        Some(b) if b == "yes" || b == "1" => Ok(exact((mode, antes))),
        Some(b) if b == "no" || b == "0" => Ok(nearest(
            (mode, antes),
            format!(
                "--strengthen={s}: yasmin bumps the variables of every reason its analysis meets (as with yes)"
            ),
        )),
        Some(_) => Err(expected()),
    }
}

/// `--sat-prepro`'s value: clasp's `<level>[,<limit>...]`, or off (`no`, `off`, `0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SatPreproArg(pub Option<SatPrepro>);

pub(super) fn parse_sat_prepro(s: &str) -> Result<SatPreproArg, String> {
    match s {
        "no" | "off" | "0" | "false" => Ok(SatPreproArg(None)),
        _ => s.parse().map(|p| SatPreproArg(Some(p))),
    }
}

/// `--del-cfl`: the schedule of deletions of learned nogoods, in conflicts (clasp's forms).
pub(super) fn parse_del_cfl(s: &str) -> Result<Schedule, String> {
    match s.parse::<Schedule>()? {
        Schedule { sequence: Restarts::Dynamic(..), .. } => {
            Err(format!("'{s}': dynamic schedules are for restarts only"))
        }
        schedule => Ok(schedule),
    }
}

#[cfg(test)]
mod tests {
    use super::super::Cli;
    use super::*;
    use clap::Parser;

    #[test]
    fn distribution() {
        assert_eq!(parse_distribute("no"), Ok(Distribution(None)));
        assert_eq!(parse_distribute("all,3"), Ok(Distribution(Some(Distribute { lbd: 3, size: 64 }))));
        assert_eq!(
            parse_distribute("conflict,2,10"),
            Ok(Distribution(Some(Distribute { lbd: 2, size: 10 })))
        );
        assert!(parse_distribute("some").is_err() && parse_distribute("all,x").is_err());
        // clasp's default, and its mode and unbounded size.
        assert_eq!(
            parse_distribute("conflict,global,4"),
            Ok(Distribution(Some(Distribute { lbd: 4, size: 64 })))
        );
        assert_eq!(
            parse_distribute("all,local,2,-1"),
            Ok(Distribution(Some(Distribute { lbd: 2, size: u32::MAX })))
        );
    }

    #[test]
    fn parallel_mode() {
        let mode = |threads, split| Ok(ParallelMode { threads, split });
        assert_eq!(parse_threads("4"), mode(4, false));
        assert_eq!(parse_threads("8,compete"), mode(8, false));
        assert_eq!(parse_threads("2,split"), mode(2, true));
        assert!(parse_threads("0").is_err());
        assert!(parse_threads("65").is_err());
        assert!(parse_threads("4,race").is_err());
        assert_eq!(Cli::parse_from(["yasmin", "-t", "3"]).parallel.threads, 3);
        assert_eq!(Cli::parse_from(["yasmin"]).parallel, ParallelMode { threads: 1, split: false });
    }

    #[test]
    fn gpu_devices() {
        assert_eq!(parse_gpu_devices("all"), Ok(GpuDevices(None)));
        assert_eq!(parse_gpu_devices("1,0"), Ok(GpuDevices(Some(vec![1, 0]))));
        assert_eq!(parse_gpu_devices("0,0"), Ok(GpuDevices(Some(vec![0, 0]))), "two farms on device 0");
        for bad in ["", "0,", "x", "-1", "4096"] {
            assert!(parse_gpu_devices(bad).is_err(), "{bad}");
        }
        assert_eq!(Cli::parse_from(["yasmin"]).gpu_devices, GpuDevices(None));
    }

    #[test]
    fn clasps_values() {
        assert_eq!(parse_quiet("1,0"), Ok(Quiet { models: 1, costs: 0, calls: 2 }));
        assert_eq!(parse_quiet("2"), Ok(Quiet { models: 2, costs: 2, calls: 2 }));
        assert_eq!(parse_quiet("0,1,0"), Ok(Quiet { models: 0, costs: 1, calls: 0 }));
        assert!(parse_quiet("3").is_err() && parse_quiet("1,1,1,1").is_err() && parse_quiet("").is_err());
        assert_eq!((parse_stats("2"), parse_stats("1,2")), (Ok(2), Ok(1)));
        assert!(parse_stats("3").is_err());
        assert_eq!(
            parse_opt_mode("opt,5,-2"),
            Ok(OptModeArg { mode: OptMode::Opt, bound: Some(vec![5, -2]) })
        );
        assert_eq!(parse_opt_mode("optN"), Ok(OptModeArg { mode: OptMode::OptN, bound: None }));
        assert!(parse_opt_mode("opt,x").is_err() && parse_opt_mode("fast").is_err());
        assert!(parse_opt_strategy("bb").unwrap().warning.is_none());
        assert_eq!(parse_trans_ext("no").unwrap(), exact(ExtendedRules::Native));
        assert_eq!(parse_trans_ext("Dynamic").unwrap(), exact(ExtendedRules::Dynamic));
        assert_eq!(parse_trans_ext("integ").unwrap(), exact(ExtendedRules::Integrity));
        assert!(parse_trans_ext("all").unwrap().warning.unwrap().contains("counts only"));
        assert!(parse_trans_ext("some").is_err());
        let usc = parse_opt_strategy("usc,oll,disjoint").unwrap();
        assert_eq!((usc.value, usc.warning), (OptStrategy::Usc { disjoint: true, stratify: false }, None));
        assert_eq!(
            parse_opt_strategy("usc,oll,5").unwrap().value,
            OptStrategy::Usc { disjoint: true, stratify: true }
        );
        assert!(parse_opt_strategy("usc").unwrap().warning.is_none());
        assert!(parse_opt_strategy("usc,pmres").unwrap().warning.unwrap().contains("oll"));
        assert!(parse_opt_strategy("usc,oll,succinct").unwrap().warning.is_some());
        assert!(parse_opt_strategy("usc,oll,fast").is_err());
        assert!(parse_opt_strategy("bb,fast").is_err());
        assert_eq!(parse_heuristic("Vsids").unwrap(), exact((Heuristic::Activity, None, false)));
        assert_eq!(parse_heuristic("Vsids,92").unwrap(), exact((Heuristic::Activity, Some(0.92), false)));
        assert!(parse_heuristic("Berkmin,0").unwrap().warning.is_some());
        assert_eq!(parse_heuristic("Berkmin,512").unwrap(), exact((Heuristic::Berkmin, None, false)));
        let dm = |modifier, pick| Ok(DomModArg(Some(DomMod { modifier, pick })));
        assert_eq!(parse_dom_mod("neg,opt"), dm(DomModifier::Neg, DomMod::OPT));
        assert_eq!(parse_dom_mod("level"), dm(DomModifier::Level, 0));
        assert_eq!(parse_dom_mod("3,24"), dm(DomModifier::True, DomMod::OPT | DomMod::SHOW));
        assert_eq!(parse_dom_mod("init,all,scc,hcc"), dm(DomModifier::Init, DomMod::SCC | DomMod::HCC));
        assert_eq!(parse_dom_mod("false,disj"), dm(DomModifier::False, DomMod::DISJ));
        assert_eq!((parse_dom_mod("no"), parse_dom_mod("false")), (Ok(DomModArg(None)), Ok(DomModArg(None))));
        for bad in ["8", "pos,32", "neg,cycles", "sign", ""] {
            assert!(parse_dom_mod(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_lookahead("no"), Ok(LookaheadArg(None)));
        let atom = |limit| LookaheadArg(Some(Lookahead { kind: LookKind::Atom, limit }));
        assert_eq!((parse_lookahead("atom"), parse_lookahead("atom,10")), (Ok(atom(0)), Ok(atom(10))));
        assert!(parse_lookahead("hybrid,x").is_err() && parse_lookahead("rule").is_err());
        assert_eq!(parse_heuristic("Domain").unwrap(), exact((Heuristic::Domain, None, false)));
        assert_eq!(parse_heuristic("None").unwrap().value.0, Heuristic::Occurrence);
        assert_eq!(parse_heuristic("Unit").unwrap(), exact((Heuristic::Activity, None, true)));
        assert!(parse_heuristic("Vsids,x").is_err() && parse_heuristic("Random").is_err());
        assert!(parse_heuristic("Vsids,100").is_err() && parse_heuristic("Vsids,0").is_err());
        assert_eq!(parse_restarts("L,60").unwrap(), exact(Restarts::Luby(60).into()));
        assert_eq!(parse_restarts("x,100,1.5").unwrap(), exact(Restarts::Geometric(100, 1.5).into()));
        assert_eq!(parse_restarts("+,10,5").unwrap(), exact(Restarts::Arithmetic(10, 5).into()));
        assert_eq!(parse_restarts("F,300").unwrap(), exact(Restarts::Fixed(300).into()));
        assert_eq!(parse_restarts("0").unwrap(), exact(Restarts::No.into()));
        assert_eq!(parse_restarts("D,100,0.7").unwrap(), exact(Restarts::Dynamic(100, 0.7).into()));
        assert_eq!(parse_restarts("D,100,0.7,0").unwrap(), exact(Restarts::Dynamic(100, 0.7).into()));
        let adjusted = parse_restarts("D,100,0.7,16000").unwrap();
        assert_eq!(adjusted.value, Restarts::Dynamic(100, 0.7).into());
        assert!(adjusted.warning.is_some_and(|w| w.contains("does not adjust")));
        let r = parse_restarts("L,100,8").unwrap();
        assert_eq!(r, exact(Schedule { sequence: Restarts::Luby(100), repeat: 8 }));
        assert_eq!(parse_del_cfl("+,2000,300").unwrap(), yasmin::solve::config::DEL_CFL);
        assert_eq!(parse_del_cfl("+,2000,100,20").unwrap().repeat, 20);
        assert!(parse_del_cfl("+,2000").is_err() && parse_del_cfl("D,100,0.7").is_err());
        let strengthen = |s| parse_strengthen(s).map(|n| (n.value, n.warning.is_some()));
        assert_eq!(strengthen("no"), Ok(((Strengthen::No, StrengthenAntes::All), false)));
        assert_eq!(strengthen("local"), Ok(((Strengthen::Local, StrengthenAntes::All), false)));
        assert_eq!(strengthen("recursive,all"), Ok(((Strengthen::Recursive, StrengthenAntes::All), false)));
        assert_eq!(strengthen("Recursive,2"), Ok(((Strengthen::Recursive, StrengthenAntes::Binary), false)));
        assert_eq!(strengthen("local,short,yes"), Ok(((Strengthen::Local, StrengthenAntes::Short), false)));
        assert_eq!(strengthen("local,short,no"), Ok(((Strengthen::Local, StrengthenAntes::Short), true)));
        for bad in ["no,1", "all", "local,long", "recursive,all,maybe", "local,0,1,2", ""] {
            assert!(parse_strengthen(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_rand_freq("0.02"), Ok(0.02));
        assert_eq!((parse_rand_freq("0"), parse_rand_freq("1")), (Ok(0.0), Ok(1.0)));
        for bad in ["1.5", "-0.1", "NaN", "x", ""] {
            assert!(parse_rand_freq(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_update_lbd("no"), Ok((LbdUpdate::No, 0)));
        assert_eq!(parse_update_lbd("less"), Ok((LbdUpdate::Less, 0)));
        assert_eq!(parse_update_lbd("glucose,3"), Ok((LbdUpdate::Glucose, 3)));
        for bad in ["pseudo,128", "no,2", "less,", "fast", "less,x"] {
            assert!(parse_update_lbd(bad).is_err(), "{bad}");
        }
        let limit = |conflicts, restarts| Ok(SolveLimit { conflicts, restarts });
        assert_eq!(parse_solve_limit("5000"), limit(5000, u64::MAX));
        assert_eq!(parse_solve_limit("0,3"), limit(0, 3));
        assert_eq!(parse_solve_limit("umax,-1"), limit(u64::MAX, u64::MAX));
        assert!(parse_solve_limit("x").is_err() && parse_solve_limit("5,x").is_err());
        assert!(parse_restarts("D,100,0.7").unwrap().warning.is_none());
        assert!(parse_restarts("L").is_err() && parse_restarts("x,0,2").is_err());
        let c = Cli::parse_from(["yasmin", "--quiet=1", "-s", "--opt-mode=enum,3"]);
        assert_eq!((c.quiet().models, c.stats, c.opt_mode.bound.clone()), (1, Some(1), Some(vec![3])));
        assert_eq!(Cli::parse_from(["yasmin"]).quiet(), Quiet::DEFAULT);
        assert_eq!(Cli::parse_from(["yasmin", "-q"]).quiet(), Quiet { models: 2, costs: 2, calls: 2 });
        assert_eq!((Cli::parse_from(["yasmin"]).verbose, Cli::parse_from(["yasmin", "-V"]).verbose), (1, 3));
    }
}
