//! Named configurations of a search (clasp's `--configuration`, mapped onto yasmin's options:
//! decisions, sign and phase, heuristic, restarts, deletion, learning) and the default portfolio
//! of a parallel run (clasp's `many`): N searches that differ in more than their seed.
//!
//! clasp's presets tune options yasmin does not have (deletion schedules, on-the-fly
//! strengthening); each name below is the nearest yasmin configuration in spirit:
//! `tweety` (ASP problems: decisions on variables, progress saving, fast Luby restarts, activities
//! decaying by 0.92), `trendy`
//! and `handy` (industrial and large problems: variables, geometric restarts), `frumpy`
//! (conservative: rules, geometric restarts), `crafty` (crafted problems: variables, slow
//! geometric restarts, activity deletion), `jumpy` (aggressive: variables, Luby restarts, no
//! progress saving).

use super::config::{Decisions, Deletion, Heuristic, Learning, LookKind, Lookahead, Restarts, SearchOptions};

/// The names `--configuration` takes (`auto`: the search's own options; `many`: the portfolio).
pub const NAMES: &[&str] = &["auto", "tweety", "trendy", "frumpy", "crafty", "jumpy", "handy", "many"];

/// The search options of a named configuration, over `base` (what the options not named keep);
/// `None` for `many` (a portfolio, see [`portfolio`]) or an unknown name.
pub fn preset(name: &str, base: &SearchOptions) -> Option<SearchOptions> {
    // Progress saving on every backjump where it is on (clasp's presets save on longer ones; not
    // measured here).
    let vars = |save: bool, restarts: Restarts, deletion| SearchOptions {
        decisions: Decisions::Vars,
        heuristic: Heuristic::Activity,
        save_progress: save.then_some(0),
        restarts: restarts.into(),
        deletion,
        ..base.clone()
    };
    Some(match name {
        "auto" => base.clone(),
        "tweety" => SearchOptions { decay: 0.92, ..vars(true, Restarts::Luby(60), Deletion::Lbd) },
        "trendy" => vars(true, Restarts::Geometric(100, 1.5), Deletion::Lbd),
        "handy" => vars(true, Restarts::Geometric(200, 1.2), Deletion::Lbd),
        "crafty" => vars(true, Restarts::Geometric(128, 1.5), Deletion::Activity),
        "jumpy" => vars(false, Restarts::Luby(100), Deletion::Lbd),
        "frumpy" => SearchOptions {
            decisions: Decisions::Rules,
            restarts: Restarts::Geometric(100, 1.5).into(),
            deletion: Deletion::Lbd,
            ..base.clone()
        },
        _ => return None,
    })
}

/// The default portfolio's configurations after the first (which is `base` itself, so that a
/// parallel run searches at least as a single one does), cycled when more searches are asked.
fn variants(base: &SearchOptions) -> Vec<SearchOptions> {
    let with = |f: fn(&mut SearchOptions)| {
        let mut o = base.clone();
        f(&mut o);
        o
    };
    vec![
        preset("tweety", base).expect("a preset"),
        with(|o| o.restarts = Restarts::Geometric(100, 1.5).into()),
        preset("jumpy", base).expect("a preset"),
        // clasp's sixth search (`s6`): BerkMin with lookahead for the first ten fixpoints.
        with(|o| {
            (o.decisions, o.heuristic) = (Decisions::Vars, Heuristic::Berkmin);
            o.restarts = Restarts::Geometric(100, 1.5).into();
            o.lookahead = Some(Lookahead { kind: LookKind::Atom, limit: 10 });
        }),
        preset("crafty", base).expect("a preset"),
        with(|o| {
            o.heuristic = Heuristic::JeroslowWang;
            o.restarts = Restarts::Luby(256).into();
        }),
        preset("trendy", base).expect("a preset"),
        with(|o| o.learning = Learning::Fwd),
        with(|o| o.heuristic = Heuristic::Occurrence),
    ]
}

/// The configurations of `n` searches: `given` cycled when there are any (a portfolio file),
/// else `base` first and the default portfolio's variants after it. On the GPU (`gpu`) the
/// variants keep the base's decisions (the CUDA engine decides on variables too, but not with
/// these variants' progress saving; not measured) and vary only what it has (it deletes by LBD).
///
/// The fifth search is clasp's sixth (`s6`): BerkMin's decisions after ten fixpoints of
/// lookahead. Alone it finds aspcomp Visit-all's plans in 1 to 2 s where the others take 7 to
/// 17; at `-t 8` it took the place of the occurrence-ranked search, and on the GPU machine's
/// cores (BENCHMARKS.md, "BerkMin and lookahead") Visit-all went from 1.3-4.4 s to 0.8-1.6 s and
/// GraphColouring 0043's proof from 20.2 to 17.9 s (two rounds each); in place of the
/// geometric-restart search instead it lost that proof (0 of 2 within 25 s).
///
/// Searches that divide the space to enumerate it (`dividing`; not under `--configuration=many`)
/// take `base` each, unless configurations are given: every part is searched to its end, so a
/// configuration weaker on this program slows the whole and wins no race. On the GPU machine's
/// cores (BENCHMARKS.md, "Enumeration") 12- and 13-queens took 1.3 times as long with the
/// portfolio at `-t 8`, 1.5 to 1.8 times at `-t 16`, with 1.1 to 1.5 times the conflicts.
pub fn portfolio(
    base: &SearchOptions,
    given: &[SearchOptions],
    n: u32,
    gpu: bool,
    dividing: bool,
) -> Vec<SearchOptions> {
    let list = if given.is_empty() && dividing {
        vec![base.clone()]
    } else if given.is_empty() {
        let mut l = vec![base.clone()];
        l.extend(variants(base).into_iter().map(|mut o| {
            if gpu {
                (o.decisions, o.save_progress, o.deletion) =
                    (base.decisions, base.save_progress, base.deletion);
                if o.heuristic == Heuristic::Berkmin {
                    // The CUDA engine has neither BerkMin nor lookahead: its search ranks by
                    // occurrences instead, as the portfolio's fifth did before BerkMin's.
                    (o.heuristic, o.lookahead) = (Heuristic::Occurrence, None);
                }
            }
            o
        }));
        l
    } else {
        given.to_vec()
    };
    (0..n as usize).map(|i| list[i % list.len()].clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_but_many_is_a_preset() {
        let base = SearchOptions::default();
        for name in NAMES {
            assert_eq!(preset(name, &base).is_some(), *name != "many", "{name}");
        }
        assert!(preset("speedy", &base).is_none());
    }

    #[test]
    fn the_portfolio_starts_with_the_base_and_differs() {
        let base = SearchOptions::default();
        let p = portfolio(&base, &[], 9, false, false);
        assert_eq!(p.len(), 9);
        assert_eq!(format!("{:?}", p[0]), format!("{base:?}"));
        let distinct: std::collections::BTreeSet<String> = p.iter().map(|o| format!("{o:?}")).collect();
        assert_eq!(distinct.len(), 9, "nine searches, nine configurations");
        let given = [preset("tweety", &base).unwrap()];
        assert!(portfolio(&base, &given, 3, false, false).iter().all(|o| o.decisions == Decisions::Vars));
        // On the GPU every search decides as the base does (rules: `auto` is resolved so there).
        let gpu_base = SearchOptions { decisions: Decisions::Rules, ..base };
        assert!(portfolio(&gpu_base, &[], 9, true, false).iter().all(|o| o.decisions == Decisions::Rules));
    }

    #[test]
    fn searches_dividing_the_space_take_the_base_unless_given() {
        let base = SearchOptions::default();
        let p = portfolio(&base, &[], 4, false, true);
        assert!(p.iter().all(|o| format!("{o:?}") == format!("{base:?}")), "each the base");
        let given = [preset("tweety", &base).unwrap(), preset("jumpy", &base).unwrap()];
        let p = portfolio(&base, &given, 4, false, true);
        assert_eq!(format!("{:?}", p[3]), format!("{:?}", given[1]), "given ones cycled");
    }
}
