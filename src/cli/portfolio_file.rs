//! A portfolio file (`--configuration=FILE`): one configuration a line, in clasp's format
//! (`[name]: options`, `name(base): options`, as `clingo --print-portfolio` writes it) or as bare
//! search options, with `#` comments. As in clasp, a base is one of the presets, the options of
//! the command line are added to every configuration and win over the file's, and a line's
//! options that are not the search's (`--opt-strategy`, `--eq`, ...) apply to the whole run only
//! from the command line: in a file they are ignored, with a warning.

use super::{Cli, SearchArgs, tuning};
use clap::{Args, CommandFactory, FromArgMatches};
use yasmin::solve::config::{Heuristic, LbdUpdate, SearchOptions};
use yasmin::solve::configurations;

/// The configurations of the file at `path` (its text `text`), each with the options of the
/// command line `argv` (its first word the program's name) added, and the warnings its lines'
/// options give (each once).
pub fn read(path: &str, text: &str, argv: &[String]) -> Result<(Vec<SearchOptions>, Vec<String>), String> {
    let search_ids: Vec<String> = SearchArgs::augment_args(clap::Command::new("search"))
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .collect();
    let (mut list, mut warnings) = (Vec::new(), Vec::<String>::new());
    for (i, line) in text.lines().enumerate() {
        let at = |msg: String| format!("{path}:{}: {msg}", i + 1);
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (base, options) = split_name(line).map_err(at)?;
        let words: Vec<&str> = options.split_whitespace().collect();
        // The line alone: what it gives, and its own warnings.
        let (alone, given) = parse(words.iter().copied()).map_err(at)?;
        if let Some(id) = ["configuration", "tester"].iter().find(|id| given.iter().any(|g| g == *id)) {
            return Err(at(format!("--{id} may not appear in a configuration file")));
        }
        let mut line_warnings = alone.search.warnings();
        line_warnings.extend(alone.ignored.iter().cloned());
        let others = given.iter().filter(|g| !search_ids.contains(g) && !tuning::is_tuning(g));
        line_warnings.extend(
            others
                .filter_map(|g| long_name(g))
                .map(|g| format!("--{g}: not a search's option; in a configuration file it is ignored")),
        );
        for w in line_warnings.into_iter().map(|w| format!("{path}:{}: {w}", i + 1)) {
            if !warnings.iter().any(|x| x.split_once(": ").map(|p| p.1) == w.split_once(": ").map(|p| p.1)) {
                warnings.push(w);
            }
        }
        // The command line's options after the line's, so that they win.
        let rest = argv.iter().skip(1).map(String::as_str);
        let (cli, given) = parse(words.iter().copied().chain(rest)).map_err(at)?;
        let opts = cli.search.options();
        list.push(match base {
            None => opts,
            Some(b) => configurations::preset(&b.to_ascii_lowercase(), &opts, super::pinned(&given))
                .filter(|_| !b.eq_ignore_ascii_case("many"))
                .ok_or_else(|| {
                    let names = configurations::NAMES.iter().filter(|n| **n != "many");
                    at(format!(
                        "unknown base configuration '{b}' (one of {})",
                        names.cloned().collect::<Vec<_>>().join(", ")
                    ))
                })?,
        });
    }
    Ok((list, warnings))
}

/// `configs` in clasp's format (`--print-portfolio`): a line `[solver.i]: options` each, with
/// the search options that make it from the defaults, so that `--configuration=FILE` reads the
/// text back to the same configurations.
pub fn print(configs: &[SearchOptions]) -> String {
    let d = SearchOptions::default();
    let mut text = format!("# yasmin {}'s portfolio, in clasp's format\n", env!("CARGO_PKG_VERSION"));
    for (i, o) in configs.iter().enumerate() {
        let mut w = vec![format!("--decisions={}", o.decisions)];
        let percent = (o.decay * 100.0).round();
        w.push(match o.heuristic {
            Heuristic::Activity => format!("--heuristic=Vsids,{percent}"),
            Heuristic::Domain => format!("--heuristic=Domain,{percent}"),
            h => format!("--heuristic={h}"),
        });
        w.push(format!("--restarts={}", o.restarts));
        w.extend(o.save_progress.map(|n| format!("--save-progress={n}")));
        w.push(format!("--deletion={}", o.deletion));
        w.extend(o.del_cfl.map(|s| format!("--del-cfl={s}")));
        if let Some((mode, n)) = o.update_lbd.filter(|u| u.0 != LbdUpdate::No) {
            w.push(format!("--update-lbd={mode},{n}"));
        }
        if o.strengthen != d.strengthen {
            w.push(format!("--strengthen={},{}", o.strengthen.0, o.strengthen.1));
        }
        w.extend(o.shrink.map(|s| format!("--shrink={}", if s { "yes" } else { "no" })));
        w.extend(o.lookahead.map(|l| format!("--lookahead={},{}", l.kind, l.limit)));
        w.extend(o.dom_mod.map(|d| format!("--dom-mod={d}")));
        if o.sign_def != d.sign_def {
            w.push(format!("--sign-def={}", o.sign_def));
        }
        if o.init_moms != d.init_moms {
            w.push(if o.init_moms { "--init-moms" } else { "--no-init-moms" }.to_string());
        }
        if o.learning != d.learning {
            w.push(format!("--learning={}", o.learning));
        }
        text.push_str(&format!("[solver.{i}]: {}\n", w.join(" ")));
    }
    text
}

/// A line's base configuration, if it names one, and its options: `[name]: options`,
/// `name: options`, `name(base): options` or `[name](base): options` (clasp's), or bare options.
fn split_name(line: &str) -> Result<(Option<&str>, &str), String> {
    if !line.starts_with(|c: char| c == '[' || c.is_ascii_alphanumeric()) {
        return Ok((None, line));
    }
    let (head, options) =
        line.split_once(':').ok_or_else(|| format!("'{line}': expected '<name>[(<base>)]: <options>'"))?;
    let head = head.trim();
    let base = match head.split_once('(') {
        Some((_, b)) => {
            Some(b.strip_suffix(')').ok_or_else(|| format!("'{head}': expected '(<base>)'"))?.trim())
        }
        None => None,
    };
    Ok((base, options))
}

/// The long name of the argument `id` of the command line (`None` for a group's id, or a
/// positional argument: the input files).
fn long_name(id: &str) -> Option<String> {
    let command = Cli::command();
    let arg = command.get_arguments().find(|a| a.get_id() == id)?;
    arg.get_long().map(String::from)
}

/// The options `words` parsed as on the command line (clasp's tuning options taken, and long
/// names shortened, the last of an option given twice winning), and the ids of those given.
fn parse<'a>(words: impl Iterator<Item = &'a str>) -> Result<(Cli, Vec<String>), String> {
    let command = super::clasp::command().args_override_self(true);
    let argv = std::iter::once("yasmin").chain(words).map(std::ffi::OsString::from);
    let m = command.try_get_matches_from(super::clasp::normalize(argv)).map_err(|e| {
        let text = e.render().to_string();
        text.lines().next().unwrap_or("").trim_start_matches("error: ").to_string()
    })?;
    let mut cli = Cli::from_arg_matches(&m).map_err(|e| e.to_string())?;
    cli.ignored = tuning::check(&m)?;
    Ok((cli, super::clasp::given_ids(&m)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use yasmin::solve::config::{Decisions, Restarts};
    use yasmin::solve::configurations::Pinned;

    #[test]
    fn names_and_bases_are_clasps() {
        assert_eq!(split_name("--heuristic=Vsids"), Ok((None, "--heuristic=Vsids")));
        assert_eq!(split_name("[solver.0]: --heuristic=Vsids"), Ok((None, " --heuristic=Vsids")));
        assert_eq!(split_name("C1(tweety): --eq=3"), Ok((Some("tweety"), " --eq=3")));
        assert_eq!(split_name("[C2](jumpy):"), Ok((Some("jumpy"), "")));
        assert!(split_name("C3 --eq=3").is_err());
        assert!(split_name("C4(tweety: --eq=3").is_err());
    }

    #[test]
    fn clasps_portfolio_reads_with_the_command_line_winning() {
        let text = "# clasp's format\n\
            [solver.0]: --heuristic=Vsids,92 --restarts=L,60 --otfs=2 --save-progress=160 --opt-strat=bb,hier\n\
            [solver.1]: --heuristic=Berkmin --restarts=x,100,1.5 --otfs=2\n\
            C2(jumpy): --restarts=L,200\n\
            --decisions=vars\n";
        let argv = ["yasmin".to_string(), "--restarts=L,128".to_string(), "-n".to_string(), "0".to_string()];
        let (list, warnings) = read("p.txt", text, &argv[..1]).expect("read");
        assert_eq!(list.len(), 4);
        assert_eq!(
            (list[0].heuristic, list[0].decay, list[0].save_progress),
            (Heuristic::Activity, 0.92, Some(160))
        );
        assert_eq!(list[1].heuristic, Heuristic::Berkmin);
        let jumpy = configurations::preset("jumpy", &SearchOptions::default(), Pinned::default()).unwrap();
        assert_eq!((list[2].decisions, list[2].save_progress), (jumpy.decisions, jumpy.save_progress));
        assert_eq!(list[2].restarts.sequence, Restarts::Luby(200), "the line's options win over its base");
        assert_eq!(list[3].decisions, Decisions::Vars);
        assert!(warnings.iter().any(|w| w.starts_with("p.txt:2: --otfs")), "{warnings:?}");
        assert_eq!(warnings.iter().filter(|w| w.contains("--otfs")).count(), 1, "each warning once");
        assert!(warnings.iter().any(|w| w.contains("--opt-strategy: not a search's option")), "{warnings:?}");
        let (list, _) = read("p.txt", text, &argv).expect("read");
        assert!(list.iter().all(|o| o.restarts.sequence == Restarts::Luby(128)), "the command line wins");
    }

    /// clasp 3.4.2's first eight portfolio searches, as clingo 5.8.3's `--print-portfolio` prints them.
    const CLASP8: [&str; 8] = [
        "--heuristic=Vsids,92 --restarts=L,60 --deletion=basic,50 --del-max=2000000 --del-estimate=1 --del-cfl=+,2000,100,20 --del-grow=0 --del-glue=2,0 --strengthen=recursive,all --otfs=2 --init-moms --score-other=all --update-lbd=less --save-progress=160 --init-watches=least --local-restarts --loops=shared --opt-strat=bb,hier",
        "--heuristic=Vsids --restarts=D,100,0.7 --deletion=basic,50 --del-init=3.0,500,19500 --del-grow=1.1,20.0,x,100,1.5 --del-cfl=+,10000,2000 --del-glue=2 --strengthen=recursive --update-lbd=less --otfs=2 --save-p=75 --counter-restarts=3,1023 --reverse-arcs=2 --contraction=250 --loops=common --opt-heu=sign --opt-strat=usc,disjoint",
        "--heuristic=Berkmin --restarts=x,100,1.5 --deletion=basic,75 --del-init=3.0,200,40000 --del-max=400000 --contraction=250 --loops=common --save-p=180 --del-grow=1.1 --strengthen=local --sign-def-disj=pos --restart-on-model --opt-heu=model",
        "--restarts=x,128,1.5 --deletion=basic,75 --del-init=10.0,1000,9000 --del-grow=1.1,20.0 --del-cfl=+,10000,1000 --del-glue=2 --otfs=2 --reverse-arcs=1 --counter-restarts=3,9973 --contraction=250 --heuristic=domain --dom-mod=neg,opt --opt-strat=bb,hier",
        "--heuristic=Vsids --restarts=L,100 --deletion=basic,75,mixed --del-init=3.0,1000,20000 --del-grow=1.1,25,x,100,1.5 --del-cfl=x,10000,1.1 --del-glue=2 --update-lbd=glucose --strengthen=recursive --otfs=2 --save-p=70 --restart-on-model --opt-heu=sign,model --opt-strat=bb,inc",
        "--heuristic=Vsids --restarts=D,100,0.7 --deletion=sort,50,mixed --del-max=200000 --del-init=20.0,1000,14000 --del-cfl=+,4000,600 --del-glue=2 --update-lbd=less --strengthen=recursive --otfs=2 --save-p=20 --contraction=600 --loops=distinct --counter-restarts=7,1023 --reverse-arcs=2",
        "--heuristic=Berkmin,512 --restarts=x,100,1.5 --deletion=basic,75 --del-init=3.0,200,40000 --del-max=400000 --contraction=250 --loops=common --del-grow=1.1,25 --otfs=2 --reverse-arcs=2 --strengthen=recursive --init-w=least --lookahead=atom,10",
        "--heuristic=Vsids --reverse-arcs=1 --otfs=1 --local-restarts --save-progress=0 --contraction=250 --counter-restart=7,200 --restarts=x,100,1.5 --del-init=3.0,800,-1 --deletion=basic,60 --strengthen=local --del-grow=1.0,1.0 --del-glue=4 --del-cfl=+,4000,300,100",
    ];

    /// The default portfolio is clasp's, as this reader reads clasp's own lines deciding on
    /// variables (what BENCHMARKS.md's "clasp's portfolio" measured), in clasp's order.
    #[test]
    fn the_default_portfolio_is_clasps_as_read() {
        let text: String =
            CLASP8.iter().enumerate().map(|(i, l)| format!("[solver.{i}]: {l} --decisions=vars\n")).collect();
        let (read, _) = read("clasp", &text, &[]).expect("clasp's portfolio");
        let base = SearchOptions::default();
        let p = configurations::portfolio(&base, Pinned::default(), &[], 8, false, false);
        let debug = |l: &[SearchOptions]| l.iter().map(|o| format!("{o:?}")).collect::<Vec<_>>();
        assert_eq!(debug(&p), debug(&read));
        let tweety = configurations::preset("tweety", &base, Pinned::default()).expect("a preset");
        assert_eq!(debug(&[tweety]), debug(&read[..1]), "the preset is clasp's tweety");
        // The command line's options win in a file's lines as in the default portfolio.
        let argv = ["yasmin", "--heuristic=berkmin", "-t", "8"].map(String::from);
        let (berkmin, _) = super::read("clasp", &text, &argv).expect("clasp's portfolio");
        let base = SearchOptions { heuristic: Heuristic::Berkmin, ..SearchOptions::default() };
        let pinned = Pinned { heuristic: true, ..Pinned::default() };
        assert_eq!(debug(&configurations::portfolio(&base, pinned, &[], 8, false, false)), debug(&berkmin));
    }

    /// What `--print-portfolio` prints reads back to the same configurations.
    #[test]
    fn the_printed_portfolio_reads_back() {
        let base = SearchOptions::default();
        let p = configurations::portfolio(&base, Pinned::default(), &[], 8, false, false);
        let (read, warnings) = read("printed", &print(&p), &[]).expect("printed");
        assert!(warnings.is_empty(), "{warnings:?}");
        let debug = |l: &[SearchOptions]| l.iter().map(|o| format!("{o:?}")).collect::<Vec<_>>();
        assert_eq!(debug(&read), debug(&p));
    }

    #[test]
    fn bad_lines_are_named() {
        let err = |text: &str| read("p.txt", text, &[]).unwrap_err();
        assert!(
            err("--heuristic=Vsids\nC(speedy): --otfs=2\n")
                .starts_with("p.txt:2: unknown base configuration 'speedy'")
        );
        assert!(err("[s]: --restarts=fast\n").starts_with("p.txt:1: "));
        assert!(err("[s]: --configuration=tweety\n").contains("may not appear"));
        assert!(err("[s]: --no-ufs-check\n").contains("not supported"));
    }
}
