//! clasp's options that tune its own search (preprocessing, deletion, restarts' variants,
//! heuristics' parameters): none can change the answers, and yasmin has no counterpart, so each
//! is accepted and ignored with a warning, as a script written for clasp expects. clasp's
//! options that would change the answers or the output (`--supp-models`, `--compute`, lemma
//! files, atom formats) are refused with a message that says so.

use clap::{Arg, ArgAction, ArgMatches};

/// How an option takes its value: none (a flag; also clasp's `--no-` form), optionally
/// (`--otfs[=2]`), or always (`--eq=3`, `--eq 3`).
#[derive(Clone, Copy)]
enum Takes {
    Flag,
    Maybe,
    Value,
}

use Takes::{Flag, Maybe, Value};

/// The tuning options yasmin takes and ignores.
const IGNORED: &[(&str, Takes)] = &[
    ("share", Value),
    ("learn-explicit", Flag),
    ("backprop", Flag),
    ("eq-dfs", Flag),
    ("parse-ext", Flag),
    ("global-restarts", Value),
    ("integrate", Value),
    ("opt-usc-shrink", Value),
    ("opt-heuristic", Value),
    ("restart-on-model", Flag),
    ("no-lookback", Flag),
    ("score-res", Value),
    ("score-other", Value),
    ("sign-fix", Flag),
    ("berk-huang", Flag),
    ("vsids-acids", Flag),
    ("vsids-progress", Value),
    ("nant", Flag),
    ("init-watches", Value),
    ("update-mode", Value),
    ("partial-check", Maybe),
    ("sign-def-disj", Value),
    ("rand-prob", Value),
    ("forget-on-step", Value),
    ("otfs", Maybe),
    ("update-act", Flag),
    ("reverse-arcs", Maybe),
    ("contraction", Value),
    ("loops", Value),
    ("reset-restarts", Value),
    ("local-restarts", Flag),
    ("counter-restarts", Value),
    ("block-restarts", Value),
    ("shuffle", Value),
    ("del-grow", Value),
    ("del-init", Value),
    ("del-estimate", Maybe),
    ("del-max", Value),
    ("del-glue", Value),
    ("del-on-restart", Value),
    ("fast-exit", Flag),
    ("tester", Value),
];

/// clasp's options that would change the answers or what is printed, which yasmin does not
/// have: refused, saying why.
const REFUSED: &[(&str, Takes, &str)] = &[
    ("supp-models", Flag, "supported models are not computed (only answer sets)"),
    ("no-ufs-check", Flag, "unfounded sets are always checked (answer sets only)"),
    ("no-gamma", Flag, "the completion's nogoods are always added"),
    ("compute", Value, "literals cannot be forced from the command line"),
    ("lemma-in", Value, "lemmas cannot be read from a file"),
    ("lemma-out", Value, "lemmas cannot be written to a file"),
    ("lemma-out-lbd", Value, "lemmas cannot be written to a file"),
    ("lemma-out-max", Value, "lemmas cannot be written to a file"),
    ("lemma-out-dom", Value, "lemmas cannot be written to a file"),
    ("lemma-out-txt", Flag, "lemmas cannot be written to a file"),
    ("hcc-out", Value, "non-HCF components cannot be written to a file"),
    ("parse-maxsat", Flag, "MaxSAT input is not read (aspif and smodels only)"),
    // clasp's old name of --parse-maxsat.
    ("opt-sat", Flag, "MaxSAT input is not read (aspif and smodels only)"),
];

fn arg(name: &'static str, takes: Takes) -> Vec<Arg> {
    let a = Arg::new(name).long(name).hide(true);
    match takes {
        Flag => vec![
            a.action(ArgAction::SetTrue),
            Arg::new(format!("no-{name}")).long(format!("no-{name}")).hide(true).action(ArgAction::SetTrue),
        ],
        Maybe => {
            vec![a.num_args(0..=1).require_equals(true).default_missing_value("").action(ArgAction::Append)]
        }
        Value => vec![a.num_args(1).action(ArgAction::Append)],
    }
}

/// The hidden arguments, added to yasmin's own.
pub fn args() -> Vec<Arg> {
    let ignored = IGNORED.iter().flat_map(|&(n, t)| arg(n, t));
    let refused = REFUSED.iter().flat_map(|&(n, t, _)| arg(n, t));
    ignored.chain(refused).filter(|a| a.get_id() != "no-no-lookback").collect()
}

/// Whether `id` is one of clasp's tuning options (ignored or refused; `no-` forms too).
pub fn is_tuning(id: &str) -> bool {
    let name = id.strip_prefix("no-").unwrap_or(id);
    IGNORED.iter().any(|&(n, _)| n == name || n == id)
        || REFUSED.iter().any(|&(n, _, _)| n == name || n == id)
}

fn given(m: &ArgMatches, id: &str) -> bool {
    m.try_contains_id(id).unwrap_or(false)
        && m.value_source(id) == Some(clap::parser::ValueSource::CommandLine)
}

/// A warning for each ignored option given; an error for a refused one.
pub fn check(m: &ArgMatches) -> Result<Vec<String>, String> {
    for &(name, _, why) in REFUSED {
        if given(m, name) {
            return Err(format!("--{name} is not supported: {why}"));
        }
    }
    let mut warnings = Vec::new();
    for &(name, takes) in IGNORED {
        let ids: Vec<String> = match takes {
            Flag => vec![name.to_string(), format!("no-{name}")],
            _ => vec![name.to_string()],
        };
        for id in ids.iter().filter(|id| given(m, id)) {
            warnings
                .push(format!("--{id}: tunes clasp's own search; yasmin has no counterpart and ignores it"));
        }
    }
    Ok(warnings)
}
