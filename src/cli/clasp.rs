//! clasp's command-line conventions on top of clap: the attached short values (`-q1,0`, `-V0`,
//! `-s2`, `-h2`), `--` for standard input, and clasp's error form.

use super::{Cli, tuning};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, FromArgMatches};
use std::ffi::OsString;

/// What the command line asks for.
pub enum Parsed {
    Run(Box<Cli>),
    /// `--help[=N]`, `--version`, `--completions SHELL`, `--man` or `--print-portfolio`: the
    /// text to print, then exit 0.
    Print(String),
}

/// A command-line error, in clasp's words (`*** ERROR: (yasmin): ` goes before it).
#[derive(Debug)]
pub struct CliError(pub String);

/// Short options whose value clasp writes attached (`-q2,2`): the long form they stand for.
const ATTACHED: [(char, &str); 4] = [('q', "quiet"), ('V', "verbose"), ('s', "stats"), ('h', "help")];

/// Rewrites clasp's forms into clap's: `-q1,0` is `--quiet=1,0`, and `--`, which clasp reads
/// as standard input (it does not end the options there), is `-`.
pub fn normalize(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    args.into_iter()
        .enumerate()
        .map(|(i, a)| {
            let Some(s) = a.to_str().filter(|_| i > 0) else { return a };
            if s == "--" {
                return OsString::from("-");
            }
            let mut chars = s.chars();
            if let (Some('-'), Some(c)) = (chars.next(), chars.next()) {
                let rest = chars.as_str();
                if let Some((_, long)) = ATTACHED.iter().find(|(short, _)| *short == c)
                    && !rest.is_empty()
                {
                    return OsString::from(format!("--{long}={}", rest.trim_start_matches('=')));
                }
            }
            a
        })
        .collect()
}

/// The command line's parser: yasmin's options, and clasp's own tuning options too (hidden);
/// long options may be shortened where that is unambiguous (`--save-p=75`), as clasp allows.
/// Values named by keywords are read in any case, as clasp reads them (`--enum-mode=BT`).
pub fn command() -> clap::Command {
    Cli::command()
        .args(tuning::args())
        .infer_long_args(true)
        .mut_args(|a| if a.get_action().takes_values() { a.ignore_case(true) } else { a })
}

/// The ids of the arguments given on the command line (not defaults).
pub fn given_ids(m: &clap::ArgMatches) -> Vec<String> {
    m.ids()
        .filter(|id| m.value_source(id.as_str()) == Some(clap::parser::ValueSource::CommandLine))
        .map(|id| id.to_string())
        .collect()
}

/// Parses the command line as clasp would.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Parsed, CliError> {
    let command = command();
    let args = normalize(args);
    let matches = match command.try_get_matches_from(&args) {
        Ok(m) => m,
        Err(e) if e.kind() == ErrorKind::DisplayVersion => return Ok(Parsed::Print(e.to_string())),
        Err(e) => return Err(CliError(clasp_message(&e))),
    };
    let mut cli = Cli::from_arg_matches(&matches).map_err(|e| CliError(clasp_message(&e)))?;
    cli.argv = args.iter().map(|a| a.to_string_lossy().into_owned()).collect();
    cli.ignored = tuning::check(&matches).map_err(|e| CliError(format!("In context '<yasmin>': {e}")))?;
    cli.given = given_ids(&matches);
    if let Some(shell) = cli.completions {
        let mut out = Vec::new();
        clap_complete::generate(shell, &mut Cli::command(), "yasmin", &mut out);
        return Ok(Parsed::Print(String::from_utf8_lossy(&out).into_owned()));
    }
    if cli.print_portfolio {
        return cli.portfolio_text().map(Parsed::Print).map_err(CliError);
    }
    if cli.man {
        let mut out = Vec::new();
        clap_mangen::Man::new(Cli::command()).render(&mut out).map_err(|e| CliError(e.to_string()))?;
        return Ok(Parsed::Print(String::from_utf8_lossy(&out).into_owned()));
    }
    Ok(match cli.help {
        Some(1) => Parsed::Print(Cli::command().render_help().to_string()),
        Some(_) => Parsed::Print(Cli::command().render_long_help().to_string()),
        None => Parsed::Run(Box::new(cli)),
    })
}

/// The option a clap error is about, as clasp names it ('models' for `--models <N>`).
fn option_name(e: &clap::Error) -> Option<String> {
    match e.get(ContextKind::InvalidArg)? {
        ContextValue::String(s) => {
            let s = s.split([' ', '=', '[']).next().unwrap_or(s);
            Some(s.trim_start_matches('-').to_string())
        }
        _ => None,
    }
}

fn clasp_message(e: &clap::Error) -> String {
    let context = "In context '<yasmin>': ";
    let value = match e.get(ContextKind::InvalidValue) {
        Some(ContextValue::String(v)) => Some(v.clone()),
        _ => None,
    };
    let first_line = || {
        let text = e.render().to_string();
        text.lines().next().unwrap_or("").trim_start_matches("error: ").to_string()
    };
    match (e.kind(), option_name(e)) {
        (ErrorKind::UnknownArgument, Some(name)) => format!("{context}unknown option: '{name}'"),
        (ErrorKind::InvalidValue | ErrorKind::ValueValidation, Some(name)) => {
            let reason = std::error::Error::source(e).map(|s| format!(" ({s})")).unwrap_or_default();
            let reason = match (reason.is_empty(), e.get(ContextKind::ValidValue)) {
                (true, Some(ContextValue::Strings(valid))) => format!(" (expected {})", valid.join(", ")),
                _ => reason,
            };
            format!("{context}'{}' invalid value for: '{name}'{reason}", value.unwrap_or_default())
        }
        _ => format!("{context}{}", first_line()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(args: &[&str]) -> Vec<String> {
        normalize(args.iter().map(OsString::from)).into_iter().map(|a| a.into_string().unwrap()).collect()
    }

    #[test]
    fn clasps_attached_values_and_double_dash() {
        assert_eq!(
            norm(&["yasmin", "-q1,0", "-V0", "-s2", "-h3"]),
            ["yasmin", "--quiet=1,0", "--verbose=0", "--stats=2", "--help=3"]
        );
        assert_eq!(norm(&["yasmin", "-q", "-V", "--", "-n", "3"]), ["yasmin", "-q", "-V", "-", "-n", "3"]);
        assert_eq!(norm(&["yasmin", "-q=1"]), ["yasmin", "--quiet=1"]);
    }

    fn error(args: &[&str]) -> String {
        match parse(args.iter().map(OsString::from)) {
            Err(CliError(m)) => m,
            Ok(_) => panic!("{args:?} parsed"),
        }
    }

    #[test]
    fn the_command_with_clasps_tuning_options_is_consistent() {
        Cli::command().args(tuning::args()).infer_long_args(true).debug_assert();
    }

    #[test]
    fn errors_read_as_clasps() {
        assert_eq!(error(&["yasmin", "--bogus"]), "In context '<yasmin>': unknown option: 'bogus'");
        assert!(
            error(&["yasmin", "-n", "x"])
                .starts_with("In context '<yasmin>': 'x' invalid value for: 'models'")
        );
        let m = error(&["yasmin", "--opt-mode=fast"]);
        assert!(
            m.starts_with("In context '<yasmin>': 'fast' invalid value for: 'opt-mode'")
                && m.contains("optN"),
            "{m}"
        );
        let m = error(&["yasmin", "-q3"]);
        assert!(m.starts_with("In context '<yasmin>': '3' invalid value for: 'quiet'"), "{m}");
    }
}
