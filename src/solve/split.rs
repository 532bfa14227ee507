//! Split mode (clasp's `--parallel-mode=N,split`): the searches of a parallel run divide the search
//! space by guiding paths. A search works on a part, a path of assumption literals decided before
//! any other decision (restarts keep them). A search whose path is refuted (a path literal false)
//! has exhausted its part and asks the [`Coordinator`] for another; a busy search asked for work
//! gives away the part where its first decision beyond its path is flipped (`path + ¬d`) and keeps
//! `path + d`. The space is exhausted when every search waits and no part is left, or when one
//! search finds a conflict at level 0.
//!
//! Enumeration stays exact because every nogood that excludes a model (its decisions, or its
//! projection) excludes only what was printed: it is valid in every part. A search records the
//! ones it adds, and a part it gives away takes those that could matter there (all but the ones
//! that contain `d`, which no assignment of `path + ¬d` violates); so a model found in a part
//! before that part was split is never found again in the other half. Projections can still come
//! twice from two parts: the driver prints each once (`portfolio/`).
//!
//! A search that backtracks from its models (`--enum-mode=bt`, `search/`) adds no such nogood:
//! its engine's root is the path's last level, flips never land on the path, and what a flip
//! would have put there (the other branch of the first decision beyond the path) is given away
//! as a part instead. A part it gives away on request is unexplored whole; the path it keeps
//! takes the flipped decisions at its new last level, under which the rest of its part lies. It
//! notes where each model lies before reporting it, so that if its engine fails it gives back
//! only the other branches of the decisions on the way there, not the models already printed;
//! and of those, only what lies under its path then (splits since gave the rest away).

use super::search::assumptions::{Established, Path, establish};
use crate::engine::{Engine, EngineResult};
use crate::nogoods::Lit;
use crate::stop::{Stop, StopToken};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// A part of the search space: its guiding path, and the nogoods that exclude the models already
/// printed that lie in it.
#[derive(Clone, Debug, Default)]
pub struct Part {
    pub path: Vec<Lit>,
    pub nogoods: Vec<Vec<Lit>>,
}

/// Invariant: `idle` counts the searches waiting in `next_part`, of the `searches` still taking
/// part; `asked` the parts a member taking many at once waits for beyond them
/// ([`Coordinator::next_parts`]); `done` once no part is left.
struct State {
    queue: VecDeque<Part>,
    idle: u32,
    asked: u32,
    searches: u32,
    done: bool,
}

impl State {
    /// Whether more parts are waited for than are queued: busy searches then split.
    fn short(&self) -> bool {
        (self.idle + self.asked) as usize > self.queue.len()
    }
}

/// The parts not yet taken, and who waits for one.
pub struct Coordinator {
    state: Mutex<State>,
    ready: Condvar,
    /// Set while some search waits for a part and none is queued: busy searches then split.
    wanted: AtomicBool,
}

impl Coordinator {
    /// `searches` searches, the whole space one part for the first to take it.
    pub fn new(searches: u32) -> Arc<Coordinator> {
        let state =
            State { queue: VecDeque::from([Part::default()]), idle: 0, asked: 0, searches, done: false };
        Arc::new(Coordinator {
            state: Mutex::new(state),
            ready: Condvar::new(),
            wanted: AtomicBool::new(false),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for a part; `Ok(None)` when no part is left (every search waits and none is queued,
    /// or the space was found exhausted), `Err` when `stop` stops the wait.
    pub fn next_part(&self, stop: &StopToken) -> Result<Option<Part>, Stop> {
        let mut st = self.lock();
        st.idle += 1;
        loop {
            if st.done {
                return Ok(None);
            }
            if let Some(part) = st.queue.pop_front() {
                st.idle -= 1;
                self.wanted.store(st.short(), Ordering::Relaxed);
                return Ok(Some(part));
            }
            if st.idle >= st.searches {
                st.done = true;
                self.ready.notify_all();
                return Ok(None);
            }
            self.wanted.store(true, Ordering::Relaxed);
            if let Some(why) = stop.reached() {
                st.idle -= 1;
                return Err(why);
            }
            st = self.ready.wait_timeout(st, Duration::from_millis(10)).unwrap_or_else(|e| e.into_inner()).0;
        }
    }

    /// A member that joins once it is ready (the search farm, once its device is open): false
    /// where no part is left to take.
    pub fn join(&self) -> bool {
        let mut st = self.lock();
        st.searches += u32::from(!st.done);
        !st.done
    }

    /// For a member that takes many parts at a time (the search farm, `portfolio/farm_member.rs`):
    /// waits for a part as [`Coordinator::next_part`] does, then for up to `linger` asks each
    /// other busy search for `each` parts (splitting `each` times, a search keeps 1/2^each of
    /// what was left of its part), and takes every part queued.
    pub fn next_parts(
        &self,
        stop: &StopToken,
        each: u32,
        linger: Duration,
    ) -> Result<Option<Vec<Part>>, Stop> {
        let Some(first) = self.next_part(stop)? else { return Ok(None) };
        let mut st = self.lock();
        let asked = st.searches.saturating_sub(st.idle + 1) * each;
        st.asked = asked;
        self.wanted.store(st.short(), Ordering::Relaxed);
        let deadline = std::time::Instant::now() + linger;
        while st.queue.len() < asked as usize && !st.done {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() || stop.reached().is_some() {
                break;
            }
            st = self.ready.wait_timeout(st, left).unwrap_or_else(|e| e.into_inner()).0;
        }
        st.asked = 0;
        let mut parts = vec![first];
        parts.extend(st.queue.drain(..));
        self.wanted.store(st.short(), Ordering::Relaxed);
        Ok(Some(parts))
    }

    /// Whether some search waits for a part.
    #[inline]
    pub fn wanted(&self) -> bool {
        self.wanted.load(Ordering::Relaxed)
    }

    /// Queues a part given away.
    fn give(&self, part: Part) {
        let mut st = self.lock();
        st.queue.push_back(part);
        self.wanted.store(st.short(), Ordering::Relaxed);
        // Idle searches, and a member gathering parts.
        self.ready.notify_all();
    }

    /// A search leaves (it could not start, failed, or stopped), giving back the part it had not
    /// finished: another search takes it, and the end is no longer waited for from this one.
    pub fn leave(&self, unfinished: Vec<Part>) {
        let mut st = self.lock();
        st.searches -= 1;
        for part in unfinished.into_iter().rev() {
            st.queue.push_front(part);
        }
        self.wanted.store(st.short(), Ordering::Relaxed);
        self.ready.notify_all();
    }

    /// The whole space is exhausted (a conflict at level 0): no part is left for anyone.
    pub fn finish(&self) {
        self.lock().done = true;
        self.ready.notify_all();
    }

    pub fn is_done(&self) -> bool {
        self.lock().done
    }
}

/// One search's part and its place in it. Dropped, it leaves the coordinator, giving back its
/// part if it had not finished it.
pub struct Guide {
    coordinator: Arc<Coordinator>,
    part: Part,
    /// Whether the search is at work on `part` (taken and not yet refuted).
    active: bool,
    /// How far the path holds: `at.levels` is the decision level after its literals were last
    /// all true (the levels up to it are the path's decisions), while they still are.
    at: Established,
    /// Parts taken and given away.
    pub taken: u64,
    pub given: u64,
    /// Backtracking: where the last model of the part was found.
    frontier: Option<Frontier>,
}

/// Where a model was found by backtracking: the decision and the flipped decisions of each level
/// beyond the path. What is left of the part lies on the other branches of those decisions.
///
/// Invariant: the part's path then is a prefix of its path now (a split only extends it), and
/// the branches that a split gave away since contradict the path now.
struct Frontier {
    levels: Vec<(Lit, Vec<Lit>)>,
    /// The length of the part's path then.
    path_len: usize,
}

impl Guide {
    pub fn new(coordinator: Arc<Coordinator>) -> Guide {
        Guide {
            coordinator,
            part: Part::default(),
            active: false,
            at: Established::default(),
            taken: 0,
            given: 0,
            frontier: None,
        }
    }

    pub fn coordinator(&self) -> &Coordinator {
        &self.coordinator
    }

    /// Starts on `part`, whose nogoods the search is to add (at level 0): they stay recorded with
    /// the part, which a search that fails gives back whole.
    pub fn take(&mut self, part: Part) -> &[Vec<Lit>] {
        self.taken += 1;
        self.active = true;
        self.at = Established::default();
        self.frontier = None;
        self.part = part;
        &self.part.nogoods
    }

    /// The decision level of the path's last literal, while every path literal is true.
    pub fn levels(&self) -> Option<u32> {
        self.at.levels
    }

    /// Gives away `path + l` (with the nogoods that could matter there): the other half of a
    /// split, or when backtracking, the branch a flip would have put on the path.
    pub fn give_branch(&mut self, l: Lit) {
        let mut path = self.part.path.clone();
        path.push(l);
        let nogoods = self.part.nogoods.iter().filter(|ng| !ng.contains(&!l)).cloned().collect();
        self.given += 1;
        self.coordinator.give(Part { path, nogoods });
    }

    /// Backtracking: notes where the model just found lies (before it is reported), so that a
    /// search that fails later gives back only what is left of its part (`Guide::unfinished`).
    pub fn note_model(&mut self, e: &dyn Engine) -> EngineResult<()> {
        let Some(root) = self.at.levels else { return Ok(()) };
        let decisions = e.decisions()?;
        let mut levels = Vec::with_capacity(decisions.len().saturating_sub(root as usize));
        for (i, &d) in decisions.iter().enumerate().skip(root as usize) {
            levels.push((d, e.flipped_at(i as u32 + 1)?));
        }
        self.frontier = Some(Frontier { levels, path_len: self.part.path.len() });
        Ok(())
    }

    /// What is left of the part: all of it, or after a model found by backtracking, the other
    /// branch of each decision on the way to that model, where it lies under the path now. A
    /// split since the model may have put on the path a decision made after it (below a flip
    /// of the model's own decisions): the branches it contradicts were given away, the others
    /// are narrowed to it.
    fn unfinished(&mut self) -> Vec<Part> {
        if !self.active {
            return Vec::new();
        }
        let part = std::mem::take(&mut self.part);
        let Some(Frontier { levels, path_len }) = self.frontier.take() else { return vec![part] };
        debug_assert!(part.path.len() >= path_len, "a split shortened the path");
        let on_path: std::collections::HashSet<Lit> = part.path.iter().copied().collect();
        // The literals on the way to the model that the path lacks, level by level.
        let mut beyond = Vec::new();
        let mut parts = Vec::new();
        for (d, flipped) in levels {
            if !on_path.contains(&d) {
                let mut path = part.path.clone();
                path.extend_from_slice(&beyond);
                if !on_path.contains(&!d) {
                    path.push(!d);
                }
                parts.push(Part { path, nogoods: part.nogoods.clone() });
            }
            for l in std::iter::once(d).chain(flipped) {
                if on_path.contains(&!l) {
                    // The deeper branches lie off the path: given away, or enumerated.
                    return parts;
                }
                if !on_path.contains(&l) {
                    beyond.push(l);
                }
            }
        }
        parts
    }

    /// Backtracking within the part found nothing left in it.
    pub fn finish_part(&mut self) {
        self.active = false;
    }

    /// Records a nogood that excludes a printed model (for the parts given away later).
    pub fn record(&mut self, nogood: &[Lit]) {
        self.part.nogoods.push(nogood.to_vec());
    }

    /// The search's engine was replaced: its path is established again from the first literal.
    pub fn engine_replaced(&mut self) {
        self.at = Established::default();
    }

    /// Decides the next path literal the engine lacks, or says that the path holds or is refuted.
    pub fn establish(&mut self, e: &mut dyn Engine) -> EngineResult<Path> {
        let path = establish(&self.part.path, &mut self.at, e)?;
        if matches!(path, Path::Refuted(_)) {
            self.active = false;
        }
        Ok(path)
    }

    /// Gives away the part beyond the search's first decision past its path, if it has made one:
    /// `path + ¬d` goes to the coordinator, `path + d` stays, with the literals that backtracking
    /// put on d's level (flipped decisions below d: what is left of `path + d` lies under them).
    pub fn split(&mut self, e: &dyn Engine) -> EngineResult<()> {
        let Some(lv) = self.at.levels else { return Ok(()) };
        let Some(&d) = e.decisions()?.get(lv as usize) else { return Ok(()) };
        let flipped = e.flipped_at(lv + 1)?;
        self.give_branch(!d);
        self.part.path.push(d);
        self.part.path.extend(flipped);
        self.at.levels = Some(lv + 1);
        Ok(())
    }
}

impl Drop for Guide {
    fn drop(&mut self) {
        let unfinished = self.unfinished();
        self.coordinator.leave(unfinished);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_handed_out_and_the_end_is_seen() {
        let c = Coordinator::new(2);
        let stop = StopToken::never();
        let first = c.next_part(&stop).unwrap().expect("the whole space");
        assert!(first.path.is_empty());
        assert!(!c.wanted(), "nobody waits yet");
        c.give(Part { path: vec![Lit(3)], nogoods: vec![vec![Lit(5)]] });
        let second = c.next_part(&stop).unwrap().expect("the part given");
        assert_eq!((second.path, second.nogoods), (vec![Lit(3)], vec![vec![Lit(5)]]));
        // Both wait now: a third call sees every search idle and nothing queued.
        let c2 = Arc::clone(&c);
        let waiter = std::thread::spawn(move || c2.next_part(&StopToken::never()).unwrap());
        while !c.wanted() {
            std::thread::yield_now();
        }
        assert!(c.next_part(&stop).unwrap().is_none());
        assert!(waiter.join().unwrap().is_none() && c.is_done());
    }

    /// A member taking many parts (the farm) waits for one, then for one from each other busy
    /// search, and takes them all in the order given.
    #[test]
    fn a_member_gathers_a_part_from_each_busy_search() {
        let c = Coordinator::new(3);
        let never = StopToken::never();
        assert!(c.next_part(&never).unwrap().unwrap().path.is_empty(), "one search has the space");
        let member = {
            let c = Arc::clone(&c);
            std::thread::spawn(move || c.next_parts(&StopToken::never(), 1, Duration::from_secs(60)))
        };
        let part = |v: u32| Part { path: vec![Lit(v)], nogoods: Vec::new() };
        while !c.wanted() {
            std::thread::yield_now();
        }
        c.give(part(3));
        // The member took it and asks the two others (one never took a part) for one each.
        while !c.wanted() {
            std::thread::yield_now();
        }
        c.give(part(5));
        assert!(c.wanted(), "one more is asked for");
        c.give(part(7));
        let parts = member.join().unwrap().unwrap().expect("parts");
        assert_eq!(parts.iter().map(|p| p.path[0]).collect::<Vec<_>>(), [Lit(3), Lit(5), Lit(7)]);
        assert!(!c.wanted(), "nobody waits");
        // Once every search waits and nothing is queued, the member sees the end too.
        c.leave(Vec::new());
        c.leave(Vec::new());
        assert!(c.next_parts(&never, 1, Duration::from_secs(60)).unwrap().is_none() && c.is_done());
        assert!(!c.join(), "a member that opens after the end takes no part");
    }

    /// A member that joins late is waited for: the searches see no end while it works.
    #[test]
    fn a_member_joining_late_is_waited_for() {
        let c = Coordinator::new(1);
        let never = StopToken::never();
        let whole = c.next_part(&never).unwrap().expect("the whole space");
        assert!(c.join(), "the search is at work: the member joins");
        let mut g = Guide::new(Arc::clone(&c));
        g.take(whole);
        g.give_branch(Lit(4));
        let parts = c.next_parts(&never, 1, Duration::from_millis(1)).unwrap().expect("the branch");
        assert_eq!(parts[0].path, [Lit(4)]);
        // The search finishes its part and waits: the member still works, so it is no end.
        g.finish_part();
        let c2 = Arc::clone(&c);
        let search = std::thread::spawn(move || c2.next_part(&StopToken::never()).unwrap());
        std::thread::sleep(Duration::from_millis(30));
        assert!(!c.is_done() && !search.is_finished());
        assert!(c.next_parts(&never, 1, Duration::from_millis(1)).unwrap().is_none() && c.is_done());
        assert!(search.join().unwrap().is_none());
        drop(g);
    }

    #[test]
    fn a_search_that_leaves_gives_its_part_back() {
        let c = Coordinator::new(2);
        let stop = StopToken::never();
        let mut g = Guide::new(Arc::clone(&c));
        g.take(c.next_part(&stop).unwrap().unwrap());
        g.record(&[Lit(4)]);
        drop(g);
        let back = c.next_part(&stop).unwrap().expect("the part given back");
        assert_eq!(back.nogoods, vec![vec![Lit(4)]]);
        // The one left is the only search now: when it waits, the space is exhausted.
        assert!(c.next_part(&stop).unwrap().is_none());
    }

    /// A search fails after a model found at `T18, T33` below its path `F28`: it gives back the
    /// other branch of each decision. After flipping `T33` and two splits (giving away `F18`,
    /// then `F29` below the flipped `F33`), what is left is the path it keeps, whole: the
    /// model's branches lie off it or were given away. (Found by `tests/faults.rs`, which once
    /// lost the models under `T29`.)
    #[test]
    fn a_failed_search_gives_back_what_lies_under_its_path() {
        let (t, f) = (Lit::pos, Lit::neg);
        let unfinished = |path: Vec<Lit>| {
            let c = Coordinator::new(1);
            let mut g = Guide::new(Arc::clone(&c));
            g.take(Part { path, nogoods: Vec::new() });
            g.frontier = Some(Frontier { levels: vec![(t(18), vec![]), (t(33), vec![])], path_len: 1 });
            g.unfinished().into_iter().map(|p| p.path).collect::<Vec<_>>()
        };
        assert_eq!(unfinished(vec![f(28)]), [vec![f(28), f(18)], vec![f(28), t(18), f(33)]]);
        assert_eq!(unfinished(vec![f(28), t(18), f(33)]), [vec![f(28), t(18), f(33)]], "after one split");
        assert_eq!(unfinished(vec![f(28), t(18), f(33), t(29)]), [vec![f(28), t(18), f(33), t(29)]]);
        assert_eq!(
            unfinished(vec![f(28), t(18), t(33), t(29)]),
            Vec::<Vec<Lit>>::new(),
            "a path through the model's own branches: only the model lay there"
        );
    }
}
