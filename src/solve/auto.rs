//! What `auto` leaves open made definite for a program and its task: the decisions, deletion and
//! shrinking of each search, at-most-ones as pairs, and with `--gpu-mode=auto` which engine
//! searches (the search farm, the grid-wide engine, or with `--backend=auto` the CPU engine).

use super::config::{self, Backend, EnumMode, GpuMode, SolveOptions};
use super::{farm, sat_prepro};
use crate::engine::cuda::device::Device;
use crate::program::Program;
use crate::program::deps::Dependencies;

/// The options with what `auto` leaves to the task made definite, in the search's options and
/// the portfolio's; `None` where nothing is left. `--decisions=auto` becomes rules or variables
/// for this program (its tightness, whether it optimizes: [`config::Decisions::resolve`]; variables
/// where `--sat-prepro` serves the task); an unset `--del-cfl` [`config::DEL_CFL`], or
/// [`config::ENUM_DEL_CFL`] where several models are enumerated, and an unset `--shrink` and
/// `--pair-at-most-one` on there only; `--gpu-mode=auto` the grid where the farm does not take
/// the task ([`farm::auto_takes`]), or with `--backend=auto` the CPU engine, which it also takes
/// where the GPU cannot serve what was asked ([`cpu_first`]) or this machine has no CUDA driver
/// or NVRTC. The program's dependencies, where tightness or head cycles were asked, go to `deps`
/// for the driver.
pub(super) fn resolve(
    program: &Program,
    opts: &SolveOptions,
    deps: &mut Option<Dependencies>,
) -> Option<SolveOptions> {
    resolve_here(program, opts, deps, Device::missing_library)
}

/// [`resolve`] on a machine that lacks what `missing` says of what the GPU needs (`None`:
/// nothing), asked only where `--backend=auto` still has the GPU in view.
fn resolve_here(
    program: &Program,
    opts: &SolveOptions,
    deps: &mut Option<Dependencies>,
    missing: fn() -> Option<&'static str>,
) -> Option<SolveOptions> {
    if opts.backend == Backend::Auto
        && opts.gpu_mode == GpuMode::Auto
        && let Some(why) = cpu_first(opts).or_else(|| missing().map(str::to_string))
    {
        log::info!("--backend=auto: the CPU engine searches: {why}");
        let cpu = SolveOptions { backend: Backend::Cpu, ..opts.clone() };
        return Some(resolve_here(program, &cpu, deps, missing).unwrap_or(cpu));
    }
    let searches = || std::iter::once(&opts.search).chain(opts.portfolio.iter());
    let decisions = searches().any(|o| o.decisions == config::Decisions::Auto);
    let gpu_auto = opts.gpu_mode == GpuMode::Auto && opts.backend != Backend::Cpu;
    let left = opts.pair_at_most_one.is_none();
    if !decisions && !gpu_auto && !left && searches().all(|o| o.del_cfl.is_some() && o.shrink.is_some()) {
        return None;
    }
    let optimizing = opts.optimizes(program);
    // Tightness matters only where nothing else decides (a stopped pass leaves the run to stop in
    // the completion).
    let tight =
        optimizing || !decisions || dependencies(program, opts, deps).is_some_and(Dependencies::is_tight);
    let enumerating =
        !optimizing && opts.several_models() && matches!(opts.enum_mode, EnumMode::Auto | EnumMode::Bt);
    // `--sat-prepro` needs decisions on variables, which `auto` then takes.
    let eliminating = opts.sat_prepro.is_some() && sat_prepro::task_declined(opts, optimizing).is_none();
    let mut o = opts.clone();
    for s in std::iter::once(&mut o.search).chain(o.portfolio.iter_mut()) {
        s.resolve_decisions(optimizing, tight && !eliminating);
        s.del_cfl.get_or_insert(if enumerating { config::ENUM_DEL_CFL } else { config::DEL_CFL });
        s.shrink.get_or_insert(enumerating);
    }
    o.pair_at_most_one.get_or_insert(enumerating);
    let head_cycle_free = || dependencies(program, opts, deps).is_some_and(Dependencies::is_head_cycle_free);
    if gpu_auto && !farm::auto_takes(program, opts, optimizing, head_cycle_free) {
        // One search of the grid-wide engine is slower than one of the CPU engine (README, "The
        // GPU"; on 56 competition instances `--backend=cuda -t 8` lost two optimizations that
        // the CPU's 8 searches prove in a second, BENCHMARKS.md "The GPU's default"): `auto`
        // takes the CPU engine for what the farm does not take, `cuda` the grid.
        match opts.backend {
            Backend::Auto => o.backend = Backend::Cpu,
            _ => o.gpu_mode = GpuMode::Grid,
        }
    }
    Some(o)
}

/// The program's dependencies, computed into `deps` where they are not there yet (`None`: the stop
/// token stopped that).
fn dependencies<'d>(
    program: &Program,
    opts: &SolveOptions,
    deps: &'d mut Option<Dependencies>,
) -> Option<&'d Dependencies> {
    if deps.is_none() {
        *deps = Dependencies::new_until(program, &opts.stop).ok();
    }
    deps.as_ref()
}

/// Whether a GPU may search for `opts`, whatever the program: `app` opens it while the input is
/// read where it may.
pub fn gpu_may_search(opts: &SolveOptions) -> bool {
    match opts.backend {
        Backend::Cpu => false,
        Backend::Cuda => true,
        Backend::Auto => {
            (opts.gpu_mode != GpuMode::Auto || cpu_first(opts).is_none())
                && Device::missing_library().is_none()
        }
    }
}

/// Why `--backend=auto` takes the CPU engine whatever the program, if it does: what was asked
/// of the search that the GPU's engines do not honour ([`config::SearchOptions::cuda_ignores`],
/// `--sat-prepro`), or models enumerated by one search (`-t 1`), which then come in one order
/// from run to run, as clasp's do, and a small program's without the GPU's start-up (0.3 to 0.5 s
/// on an H200, BENCHMARKS.md "Enumeration"); with `-t N` the farm enumerates beside the N CPU
/// searches.
fn cpu_first(opts: &SolveOptions) -> Option<String> {
    let ignored = opts.search.cuda_ignores().into_iter().next();
    ignored
        .or_else(|| opts.sat_prepro.is_some().then(|| "--sat-prepro preprocesses for the CPU engine".into()))
        .or_else(|| (opts.threads == 1 && opts.several_models()).then(|| "one search enumerates".into()))
}

#[cfg(test)]
mod tests {
    use super::resolve_here;
    use crate::input::read_program;
    use crate::solve::config::{
        Backend, DEL_CFL, Decisions, ENUM_DEL_CFL, GpuMode, Heuristic, SearchOptions, SolveOptions,
    };

    #[test]
    fn auto_deletion_follows_the_task_and_a_given_schedule_stays() {
        // {a;b}. and the same with #minimize{1:a}.
        let plain = read_program(b"asp 1 0 0\n1 1 2 1 2 0 0\n0\n").unwrap();
        let minimizing = read_program(b"asp 1 0 0\n1 1 2 1 2 0 0\n2 0 1 1 1\n0\n").unwrap();
        let resolved = |p, models: Option<u64>, given: Option<_>| {
            let search = SearchOptions { del_cfl: given, ..SearchOptions::default() };
            let portfolio = vec![SearchOptions { decisions: Decisions::Vars, ..search.clone() }];
            let opts = SolveOptions { models, search, portfolio, ..SolveOptions::default() };
            let o = resolve_here(p, &opts, &mut None, || None).unwrap_or(opts);
            assert_eq!(o.search.del_cfl, o.portfolio[0].del_cfl, "the portfolio's too");
            o.search.del_cfl
        };
        assert_eq!(resolved(&plain, Some(0), None), Some(ENUM_DEL_CFL));
        assert_eq!(resolved(&plain, Some(5), None), Some(ENUM_DEL_CFL));
        assert_eq!(resolved(&plain, None, None), Some(DEL_CFL), "one model");
        assert_eq!(resolved(&plain, Some(1), None), Some(DEL_CFL));
        assert_eq!(resolved(&minimizing, Some(0), None), Some(DEL_CFL), "an optimization");
        let given = Some(ENUM_DEL_CFL);
        assert_eq!(resolved(&plain, None, given), given);
        assert_eq!(resolved(&plain, Some(0), Some(DEL_CFL)), Some(DEL_CFL));
    }

    #[test]
    fn shrinking_is_on_where_models_are_enumerated_unless_given() {
        let plain = read_program(b"asp 1 0 0\n1 1 2 1 2 0 0\n0\n").unwrap();
        let minimizing = read_program(b"asp 1 0 0\n1 1 2 1 2 0 0\n2 0 1 1 1\n0\n").unwrap();
        let shrink = |p, models: Option<u64>, given: Option<bool>| {
            let search = SearchOptions { shrink: given, del_cfl: Some(DEL_CFL), ..SearchOptions::default() };
            let opts = SolveOptions { models, search, ..SolveOptions::default() };
            resolve_here(p, &opts, &mut None, || None).unwrap_or(opts).search.shrinks()
        };
        assert!(shrink(&plain, Some(0), None) && shrink(&plain, Some(5), None));
        assert!(!shrink(&plain, None, None) && !shrink(&plain, Some(1), None), "one model");
        assert!(!shrink(&minimizing, Some(0), None), "an optimization");
        assert!(!shrink(&plain, Some(0), Some(false)) && shrink(&plain, None, Some(true)), "as given");
    }

    #[test]
    fn what_the_farm_does_not_take_goes_to_the_cpu_with_auto_and_to_the_grid_with_cuda() {
        let plain = read_program(b"asp 1 0 0\n1 1 2 1 2 0 0\n0\n").unwrap();
        let minimizing = read_program(b"asp 1 0 0\n1 1 2 1 2 0 0\n2 0 1 1 1\n0\n").unwrap();
        let resolved = |p, backend, gpu_mode| {
            let opts = SolveOptions { backend, gpu_mode, ..SolveOptions::default() };
            let o = resolve_here(p, &opts, &mut None, || None).unwrap_or(opts);
            (o.backend, o.gpu_mode, o.farm().is_some(), o.search_backend())
        };
        let (auto, cpu, cuda) = (Backend::Auto, Backend::Cpu, Backend::Cuda);
        // One model: the farm's, with either; where it cannot run, auto's search is the CPU's.
        assert_eq!(resolved(&plain, auto, GpuMode::Auto), (auto, GpuMode::Auto, true, cpu));
        assert_eq!(resolved(&plain, cuda, GpuMode::Auto), (cuda, GpuMode::Auto, true, cuda));
        // An optimization, which the farm does not take.
        assert_eq!(resolved(&minimizing, auto, GpuMode::Auto), (cpu, GpuMode::Auto, false, cpu));
        assert_eq!(resolved(&minimizing, cuda, GpuMode::Auto), (cuda, GpuMode::Grid, false, cuda));
        // The grid asked for by name stays.
        assert_eq!(resolved(&minimizing, auto, GpuMode::Grid), (auto, GpuMode::Grid, false, auto));
    }

    #[test]
    fn auto_takes_the_cpu_without_a_driver_for_what_the_gpu_ignores_and_for_one_search_enumerating() {
        let plain = read_program(b"asp 1 0 0\n1 1 2 1 2 0 0\n0\n").unwrap();
        let backend = |opts: SolveOptions, missing: fn() -> Option<&'static str>| {
            let o = resolve_here(&plain, &opts, &mut None, missing).unwrap_or(opts);
            (o.backend, o.farm().is_some())
        };
        let auto = SolveOptions { backend: Backend::Auto, ..SolveOptions::default() };
        let cpu = (Backend::Cpu, false);
        assert_eq!(backend(auto.clone(), || None), (Backend::Auto, true), "one model: the farm races");
        assert_eq!(backend(auto.clone(), || Some("no CUDA driver (libcuda) found")), cpu);
        let domain = SearchOptions { heuristic: Heuristic::Domain, ..SearchOptions::default() };
        assert_eq!(backend(SolveOptions { search: domain.clone(), ..auto.clone() }, || None), cpu);
        let eight = SolveOptions { search: domain, threads: 8, ..auto.clone() };
        assert_eq!(backend(eight, || None), cpu, "-t 8 too");
        assert_eq!(backend(SolveOptions { models: Some(0), ..auto.clone() }, || None), cpu, "-n 0");
        let split = SolveOptions { models: Some(0), threads: 8, ..auto.clone() };
        assert_eq!(backend(split, || None), (Backend::Auto, true), "-n 0 -t 8: the farm takes part");
        // Asked for by name, the GPU's engines warn of what they ignore instead.
        let cuda = SolveOptions { backend: Backend::Cuda, models: Some(0), ..SolveOptions::default() };
        assert_eq!(backend(cuda, || None), (Backend::Cuda, true));
        let grid = SolveOptions { gpu_mode: GpuMode::Grid, models: Some(0), ..auto };
        assert_eq!(backend(grid, || None), (Backend::Auto, false));
    }
}
