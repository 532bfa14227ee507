//! Named configurations of a search (clasp's `--configuration`, mapped onto yasmin's options:
//! decisions, heuristic, sign and progress saving, restarts, deletion, lookahead) and the default
//! portfolio of a parallel run (clasp's `many`): N searches that differ in more than their seed.
//!
//! Each is clasp's own (its `clasp_cli_configs.inl`, as `clingo --print-portfolio` prints it),
//! deciding on variables as clasp does, with what yasmin has of it: the heuristic, restarts,
//! progress saving, the deletion schedule (`--del-cfl`), LBD updates and lookahead. clasp's
//! deletion algorithms become yasmin's LBD deletion, and the options yasmin has no counterpart
//! for (on-the-fly strengthening, contraction, counter restarts, ...) are left out.

use super::config::{
    Decisions, Deletion, DomMod, DomModifier, Heuristic, LbdUpdate, LookKind, Lookahead, Restarts, Schedule,
    SearchOptions, Strengthen, StrengthenAntes,
};

/// The names `--configuration` takes (`auto`: the search's own options; `many`: the portfolio).
pub const NAMES: &[&str] = &["auto", "tweety", "trendy", "frumpy", "crafty", "jumpy", "handy", "many"];

/// The search options the user set (clasp: on the command line), which a preset and the default
/// portfolio's searches keep instead of setting their own, as clasp's configurations do: with
/// `--heuristic=Berkmin -t 8` every search decides by BerkMin. Each field is one option's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pinned {
    pub decisions: bool,
    /// The heuristic and its decay (`--heuristic=Vsids,92`).
    pub heuristic: bool,
    pub save_progress: bool,
    pub restarts: bool,
    pub deletion: bool,
    pub del_cfl: bool,
    pub update_lbd: bool,
    pub lookahead: bool,
    pub dom_mod: bool,
    pub strengthen: bool,
    pub init_moms: bool,
}

impl Pinned {
    /// `preset` with the pinned options' values taken from `given`.
    fn keep(self, mut preset: SearchOptions, given: &SearchOptions) -> SearchOptions {
        macro_rules! keep {
            ($($pin:ident => $($field:ident),+;)*) => {
                $(if self.$pin { $(preset.$field = given.$field.clone();)+ })*
            };
        }
        keep! {
            decisions => decisions;
            heuristic => heuristic, decay;
            save_progress => save_progress;
            restarts => restarts;
            deletion => deletion;
            del_cfl => del_cfl;
            update_lbd => update_lbd;
            lookahead => lookahead;
            dom_mod => dom_mod;
            strengthen => strengthen;
            init_moms => init_moms;
        }
        preset
    }
}

/// The search options of a named configuration, over `base` (what the options not named and
/// those `pinned` keep); `None` for `many` (a portfolio, see [`portfolio`]) or an unknown name.
/// `crafty` is clasp's stand-alone one (in its portfolio it takes the domain heuristic and saves
/// no progress).
pub fn preset(name: &str, base: &SearchOptions, pinned: Pinned) -> Option<SearchOptions> {
    let preset = match name {
        "auto" => base.clone(),
        "tweety" => clasp(0, base),
        "trendy" => clasp(1, base),
        "frumpy" => clasp(2, base),
        "crafty" => {
            let crafty = clasp(3, base);
            SearchOptions {
                heuristic: Heuristic::Activity,
                save_progress: Some(180),
                dom_mod: None,
                ..crafty
            }
        }
        "jumpy" => clasp(4, base),
        "handy" => clasp(5, base),
        _ => return None,
    };
    Some(pinned.keep(preset, base))
}

/// What yasmin has of one of clasp's searches: heuristic and decay, restarts, progress saving
/// (backjumps over N levels), the deletion schedule (`--del-cfl`: sequence and repeat), LBD
/// updates, lookahead, the domain modification, strengthening and MOMS scores (`--init-moms`).
struct Clasp {
    heuristic: Heuristic,
    decay: f64,
    restarts: Restarts,
    save_progress: Option<u32>,
    del_cfl: Option<(Restarts, u32)>,
    update_lbd: LbdUpdate,
    lookahead: Option<Lookahead>,
    dom_mod: Option<DomMod>,
    strengthen: Strengthen,
    init_moms: bool,
}

const VSIDS: Clasp = Clasp {
    heuristic: Heuristic::Activity,
    decay: 0.95,
    restarts: Restarts::Luby(100),
    save_progress: None,
    del_cfl: None,
    update_lbd: LbdUpdate::No,
    lookahead: None,
    dom_mod: None,
    strengthen: Strengthen::Recursive,
    init_moms: false,
};

/// clasp's portfolio, its first eight searches (each line's comment: clasp's options that yasmin
/// takes), in order: tweety, trendy, frumpy, crafty as in a portfolio, jumpy, handy, `s6`, `s7`.
const CLASP: [Clasp; 8] = [
    // --heuristic=Vsids,92 --restarts=L,60 --del-cfl=+,2000,100,20 --update-lbd=less --save-p=160
    // --init-moms
    Clasp {
        decay: 0.92,
        restarts: Restarts::Luby(60),
        save_progress: Some(160),
        del_cfl: Some((Restarts::Arithmetic(2000, 100), 20)),
        update_lbd: LbdUpdate::Less,
        init_moms: true,
        ..VSIDS
    },
    // --heuristic=Vsids --restarts=D,100,0.7 --del-cfl=+,10000,2000 --update-lbd=less --save-p=75
    Clasp {
        restarts: Restarts::Dynamic(100, 0.7),
        save_progress: Some(75),
        del_cfl: Some((Restarts::Arithmetic(10000, 2000), 0)),
        update_lbd: LbdUpdate::Less,
        ..VSIDS
    },
    // --heuristic=Berkmin --restarts=x,100,1.5 --save-p=180 --strengthen=local
    Clasp {
        heuristic: Heuristic::Berkmin,
        restarts: Restarts::Geometric(100, 1.5),
        save_progress: Some(180),
        strengthen: Strengthen::Local,
        ..VSIDS
    },
    // --restarts=x,128,1.5 --del-cfl=+,10000,1000 --heuristic=domain --dom-mod=neg,opt
    Clasp {
        heuristic: Heuristic::Domain,
        dom_mod: Some(DomMod { modifier: DomModifier::Neg, pick: DomMod::OPT }),
        restarts: Restarts::Geometric(128, 1.5),
        del_cfl: Some((Restarts::Arithmetic(10000, 1000), 0)),
        ..VSIDS
    },
    // --heuristic=Vsids --restarts=L,100 --del-cfl=x,10000,1.1 --update-lbd=glucose --save-p=70
    Clasp {
        save_progress: Some(70),
        del_cfl: Some((Restarts::Geometric(10000, 1.1), 0)),
        update_lbd: LbdUpdate::Glucose,
        ..VSIDS
    },
    // --heuristic=Vsids --restarts=D,100,0.7 --del-cfl=+,4000,600 --update-lbd=less --save-p=20
    Clasp {
        restarts: Restarts::Dynamic(100, 0.7),
        save_progress: Some(20),
        del_cfl: Some((Restarts::Arithmetic(4000, 600), 0)),
        update_lbd: LbdUpdate::Less,
        ..VSIDS
    },
    // --heuristic=Berkmin,512 --restarts=x,100,1.5 --lookahead=atom,10
    Clasp {
        heuristic: Heuristic::Berkmin,
        restarts: Restarts::Geometric(100, 1.5),
        lookahead: Some(Lookahead { kind: LookKind::Atom, limit: 10 }),
        ..VSIDS
    },
    // --heuristic=Vsids --save-progress=0 --restarts=x,100,1.5 --del-cfl=+,4000,300,100
    // --strengthen=local
    Clasp {
        save_progress: Some(0),
        restarts: Restarts::Geometric(100, 1.5),
        del_cfl: Some((Restarts::Arithmetic(4000, 300), 100)),
        strengthen: Strengthen::Local,
        ..VSIDS
    },
];

/// clasp's portfolio search `i` (see [`CLASP`]) over `base`, deciding on variables.
fn clasp(i: usize, base: &SearchOptions) -> SearchOptions {
    let c = &CLASP[i];
    SearchOptions {
        decisions: Decisions::Vars,
        heuristic: c.heuristic,
        decay: c.decay,
        save_progress: c.save_progress,
        restarts: c.restarts.into(),
        deletion: Deletion::Lbd,
        del_cfl: c.del_cfl.map(|(sequence, repeat)| Schedule { sequence, repeat }),
        update_lbd: (c.update_lbd != LbdUpdate::No).then_some((c.update_lbd, 0)),
        lookahead: c.lookahead,
        dom_mod: c.dom_mod,
        strengthen: (c.strengthen, StrengthenAntes::All),
        init_moms: c.init_moms,
        ..base.clone()
    }
}

/// The default portfolio over `base` (clasp's `many`), one search each, each keeping the options
/// `pinned`: on the CPU clasp's eight searches in clasp's order, tweety first; on the GPU (`gpu`)
/// `base` first and clasp's searches 1 to 7 and tweety after it, keeping the base's decisions,
/// progress saving and deletion (the CUDA engine saves no progress and deletes by LBD) and
/// ranking by activity (Domain) or occurrences (BerkMin) without lookahead (see [`portfolio`];
/// `--print-portfolio` prints it).
pub fn default_portfolio(base: &SearchOptions, pinned: Pinned, gpu: bool) -> Vec<SearchOptions> {
    let search = |i| pinned.keep(clasp(i, base), base);
    if !gpu {
        return (0..8).map(search).collect();
    }
    let variants = (1..8).chain([0]).map(search);
    let mut l: Vec<SearchOptions> = std::iter::once(base.clone()).chain(variants).collect();
    for o in &mut l[1..] {
        (o.decisions, o.save_progress, o.deletion) = (base.decisions, base.save_progress, base.deletion);
        // The CUDA engine has neither BerkMin, lookahead nor #heuristic statements.
        o.heuristic = match o.heuristic {
            Heuristic::Berkmin => Heuristic::Occurrence,
            Heuristic::Domain => Heuristic::Activity,
            h => h,
        };
        o.lookahead = None;
    }
    l
}

/// The configurations of `n` searches: `given` cycled when there are any (a portfolio file),
/// else the default portfolio ([`default_portfolio`]) cycled.
///
/// On the CPU clasp's order, tweety first, against `base` first and tweety ninth (the GPU
/// machine's 16 cores, BENCHMARKS.md "clasp's portfolio", 56 instances of `../shared/bench`, 25
/// s, clingo `-t 8` in the same session: 43 solved, PAR2 14.7 s): 44 solved (PAR2 14.3 s)
/// against 43 (14.7 s); a second round of clasp's order on the 22 contested ones solved 19
/// against clingo's 15. On 18 hard ones, two rounds, clasp's eight solved 13 and 14 where the
/// presets nearest in spirit had solved 11 and 12, among them GraphColouring 0043's proof, won
/// both times by frumpy (BerkMin).
///
/// Searches that divide the space to enumerate it (`dividing`; not under `--configuration=many`)
/// take `base` each, unless configurations are given: every part is searched to its end, so a
/// configuration weaker on this program slows the whole and wins no race. On the GPU machine's
/// cores (BENCHMARKS.md, "Enumeration") 12- and 13-queens took 1.3 times as long with the
/// portfolio at `-t 8`, 1.5 to 1.8 times at `-t 16`, with 1.1 to 1.5 times the conflicts.
pub fn portfolio(
    base: &SearchOptions,
    pinned: Pinned,
    given: &[SearchOptions],
    n: u32,
    gpu: bool,
    dividing: bool,
) -> Vec<SearchOptions> {
    // One search (`--backend=auto -t 1` racing the farm) is the run's one search, as without it.
    let list = if given.is_empty() && (dividing || n == 1) {
        vec![base.clone()]
    } else if given.is_empty() {
        default_portfolio(base, pinned, gpu)
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
            assert_eq!(preset(name, &base, Pinned::default()).is_some(), *name != "many", "{name}");
        }
        assert!(preset("speedy", &base, Pinned::default()).is_none());
    }

    #[test]
    fn the_portfolio_is_clasps_and_differs() {
        let base = SearchOptions::default();
        let free = Pinned::default();
        let p = portfolio(&base, free, &[], 9, false, false);
        assert_eq!(p.len(), 9);
        let debug = |o: &SearchOptions| format!("{o:?}");
        assert_eq!(debug(&p[0]), debug(&preset("tweety", &base, free).unwrap()), "tweety first");
        assert_eq!(debug(&p[8]), debug(&p[0]), "cycled");
        let distinct: std::collections::BTreeSet<String> = p[..8].iter().map(debug).collect();
        assert_eq!(distinct.len(), 8, "eight searches, eight configurations");
        let given = [preset("tweety", &base, free).unwrap()];
        assert!(
            portfolio(&base, free, &given, 3, false, false).iter().all(|o| o.decisions == Decisions::Vars)
        );
        // On the GPU the base comes first and every search decides as it does (rules here),
        // saves no progress and ranks by what the CUDA engine has.
        let gpu_base = SearchOptions { decisions: Decisions::Rules, ..base.clone() };
        let g = portfolio(&gpu_base, free, &[], 9, true, false);
        assert_eq!(debug(&g[0]), debug(&gpu_base));
        for o in g {
            assert_eq!((o.decisions, o.save_progress, o.lookahead), (Decisions::Rules, None, None));
            assert!(!matches!(o.heuristic, Heuristic::Berkmin | Heuristic::Domain), "{:?}", o.heuristic);
        }
        // The presets are clasp's: frumpy is BerkMin's, jumpy saves progress over 70 levels.
        assert_eq!(preset("frumpy", &base, free).unwrap().heuristic, Heuristic::Berkmin);
        assert_eq!(preset("jumpy", &base, free).unwrap().save_progress, Some(70));
    }

    /// The options the user set stay in every search and preset, as in clasp; the others are
    /// the configuration's.
    #[test]
    fn pinned_options_stay() {
        let base = SearchOptions {
            heuristic: Heuristic::Berkmin,
            decisions: Decisions::Rules,
            ..Default::default()
        };
        let pinned = Pinned { heuristic: true, ..Pinned::default() };
        let p = portfolio(&base, pinned, &[], 8, false, false);
        assert!(p.iter().all(|o| o.heuristic == Heuristic::Berkmin), "the heuristic given, everywhere");
        assert!(p.iter().all(|o| o.decisions == Decisions::Vars), "decisions not pinned: clasp's");
        assert_eq!(p[1].restarts, preset("trendy", &base, pinned).unwrap().restarts, "trendy's restarts");
        assert_eq!(preset("jumpy", &base, pinned).unwrap().heuristic, Heuristic::Berkmin);
        let all = Pinned { decisions: true, ..pinned };
        assert!(portfolio(&base, all, &[], 8, false, false).iter().all(|o| o.decisions == Decisions::Rules));
    }

    #[test]
    fn searches_dividing_the_space_take_the_base_unless_given() {
        let base = SearchOptions::default();
        let free = Pinned::default();
        let p = portfolio(&base, free, &[], 4, false, true);
        assert!(p.iter().all(|o| format!("{o:?}") == format!("{base:?}")), "each the base");
        let given = [preset("tweety", &base, free).unwrap(), preset("jumpy", &base, free).unwrap()];
        let p = portfolio(&base, free, &given, 4, false, true);
        assert_eq!(format!("{:?}", p[3]), format!("{:?}", given[1]), "given ones cycled");
    }
}
