//! Split mode across the devices' search farms: the search space divided into cubes (each a
//! sign for a few of the most frequent variables), a cube a farm at a time. A farm that proves
//! its cube has no model takes the next cube nobody has taken, or joins the cube the fewest farms
//! work on; the space has no model once every cube is closed. Without split mode every farm works
//! on the whole space (the empty cube).
//!
//! What farms share must hold in the whole space: a nogood learned under a cube is relayed with
//! the cube's literals added ([`Cubes::carry`]), and a closed cube is itself a nogood of the
//! program.

use crate::engine::cuda::farm::tables::XLEN;
use crate::nogoods::{Lit, Problem};
use std::collections::VecDeque;

/// The cubes and which device's farm works on which.
/// Invariant: a device on a cube is live; every cube is in the queue, worked on, or closed
/// (neither); the cubes are disjoint and together cover the space.
pub struct Cubes {
    /// Cubes no farm has taken yet.
    queue: VecDeque<Vec<Lit>>,
    /// Each device's cube (`None`: idle).
    on: Vec<Option<Vec<Lit>>>,
    /// Devices whose farm failed: they take no cube.
    dead: Vec<bool>,
    /// Whether an idle device joins a cube others work on (not in enumeration: two farms on one
    /// cube would find its models twice).
    join: bool,
}

/// The `k` variables of `p` with the most occurrences in its nogoods (not fixed at level 0, nor
/// in `taken`).
pub(super) fn split_vars(p: &Problem, k: usize, taken: &[Lit]) -> Vec<u32> {
    let st = &p.store;
    let fixed: std::collections::HashSet<u32> = st.units.iter().chain(taken).map(|l| l.var()).collect();
    let occ = |l: usize| st.occ_offsets.get(l + 1).zip(st.occ_offsets.get(l)).map_or(0, |(b, a)| b - a);
    let mut vars: Vec<(u32, u32)> = (1..p.num_vars)
        .filter(|v| !fixed.contains(v))
        .map(|v| (occ(2 * v as usize) + occ(2 * v as usize + 1), v))
        .collect();
    vars.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    vars.into_iter().take(k).map(|(_, v)| v).collect()
}

impl Cubes {
    /// Every device on the whole space (compete mode).
    pub fn whole(devices: usize) -> Cubes {
        Cubes {
            queue: VecDeque::new(),
            on: vec![Some(Vec::new()); devices],
            dead: vec![false; devices],
            join: true,
        }
    }

    /// The cubes [`Cubes::split`] divides the space of `p` into for `devices`: at least twice as
    /// many (fewer where `p` has fewer variables), disjoint, together the whole space.
    pub fn of(p: &Problem, devices: usize) -> Vec<Vec<Lit>> {
        let k = (usize::BITS - (devices.max(1) - 1).leading_zeros()) as usize + 1;
        let vars = split_vars(p, k.min(XLEN), &[]);
        Self::signs(&vars)
    }

    /// Every sign of `vars`, a cube each.
    fn signs(vars: &[u32]) -> Vec<Vec<Lit>> {
        (0..1usize << vars.len())
            .map(|signs| vars.iter().enumerate().map(|(i, &v)| Lit::new(v, signs >> i & 1 == 0)).collect())
            .collect()
    }

    /// Split mode within one farm of `searches` searches, on the part `outer` of the space: at
    /// least twice as many cubes as searches (fewer where `p` has fewer free variables), of the
    /// most frequent variables not in `outer`, disjoint and together the whole part.
    pub fn for_searches(p: &Problem, searches: u32, outer: &[Lit]) -> Vec<Vec<Lit>> {
        let k = (u32::BITS - searches.max(1).saturating_sub(1).leading_zeros()) as usize + 1;
        Self::signs(&split_vars(p, k.min(16), outer))
    }

    /// The space of `p` divided into cubes ([`Cubes::of`]), the first ones taken.
    pub fn split(p: &Problem, devices: usize) -> Cubes {
        Self::split_joining(p, devices, true)
    }

    /// The same, where `join` says whether an idle device may join a cube that another works on.
    pub fn split_joining(p: &Problem, devices: usize, join: bool) -> Cubes {
        let queue = Cubes::of(p, devices).into();
        let mut c = Cubes { queue, on: vec![None; devices], dead: vec![false; devices], join };
        c.assign();
        c
    }

    /// Device `d`'s cube (`None`: idle).
    pub fn cube(&self, d: usize) -> Option<&[Lit]> {
        self.on[d].as_deref()
    }

    /// Whether every cube is closed: the space has no model.
    pub fn all_closed(&self) -> bool {
        self.queue.is_empty() && self.on.iter().all(Option::is_none)
    }

    /// Gives each live idle device a cube: the next in the queue, or one the fewest devices work
    /// on. Returns the devices that got one.
    fn assign(&mut self) -> Vec<usize> {
        let mut got = Vec::new();
        for d in 0..self.on.len() {
            if self.on[d].is_some() || self.dead[d] {
                continue;
            }
            let join = self.join;
            let next = self.queue.pop_front().or_else(|| {
                if !join {
                    return None;
                }
                let count = |c: &Vec<Lit>| self.on.iter().filter(|o| o.as_ref() == Some(c)).count();
                self.on.iter().flatten().min_by_key(|c| count(c)).cloned()
            });
            if next.is_some() {
                self.on[d] = next;
                got.push(d);
            }
        }
        got
    }

    /// A farm proved that `cube` has no model: it is closed for every device on it, and those
    /// devices take the next cubes. Returns them; `None` for a cube already closed (a report
    /// that another farm's proof of the same cube overtook), which changes nothing.
    pub fn close(&mut self, cube: &[Lit]) -> Option<Vec<usize>> {
        if !self.on.iter().any(|o| o.as_deref() == Some(cube)) {
            return None;
        }
        for o in &mut self.on {
            if o.as_deref() == Some(cube) {
                *o = None;
            }
        }
        Some(self.assign())
    }

    /// Device `d`'s farm failed: its cube goes back to the queue (unless another device works on
    /// it), and it takes no other. Returns the devices with a new cube.
    pub fn failed(&mut self, d: usize) -> Vec<usize> {
        self.dead[d] = true;
        if let Some(c) = self.on[d].take()
            && !self.on.contains(&Some(c.clone()))
        {
            self.queue.push_front(c);
        }
        self.assign()
    }

    /// Whether a device is left to work on the open cubes.
    pub fn any_live(&self) -> bool {
        self.dead.iter().any(|d| !d)
    }

    /// Nogood `g` (literal words), learned by device `from`'s farm, as device `to` may take it:
    /// with `from`'s cube added, so that it holds in the whole space ([`Cubes::fit`]).
    pub fn carry(&self, from: usize, to: usize, g: &[u32]) -> Option<Vec<u32>> {
        self.fit(to, self.widen(from, g))
    }

    /// Nogood `g` (literal words), learned by device `from`'s farm, with `from`'s cube added: a
    /// nogood of the whole space.
    pub fn widen(&self, from: usize, g: &[u32]) -> Vec<u32> {
        let mut out: Vec<u32> = g.to_vec();
        for l in self.cube(from).unwrap_or_default() {
            if !out.contains(&l.0) {
                out.push(l.0);
            }
        }
        out
    }

    /// Nogood `g` of the whole space as device `to` may take it: `None` where it is too long for
    /// the exchange, or holds trivially at `to` (it has a literal whose negation is in `to`'s
    /// cube, or a literal and its negation).
    pub fn fit(&self, to: usize, g: Vec<u32>) -> Option<Vec<u32>> {
        let there = self.cube(to).unwrap_or_default();
        let trivial = g.iter().any(|&x| g.contains(&(x ^ 1)) || there.contains(&!Lit(x)));
        (g.len() <= XLEN && !trivial).then_some(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(c: Option<&[Lit]>) -> Vec<u32> {
        c.unwrap_or_default().iter().map(|l| l.0).collect()
    }

    /// Four cubes over two variables, two devices.
    fn two() -> Cubes {
        let v = |a: bool, b: bool| vec![Lit::new(3, a), Lit::new(5, b)];
        let mut c = Cubes {
            queue: [v(true, true), v(false, true), v(true, false), v(false, false)].into(),
            on: vec![None, None],
            dead: vec![false, false],
            join: true,
        };
        assert_eq!(c.assign(), vec![0, 1]);
        c
    }

    /// Device `d`'s cube closed.
    fn close_at(c: &mut Cubes, d: usize) -> Vec<usize> {
        let cube = c.cube(d).expect("a cube").to_vec();
        c.close(&cube).expect("an open cube")
    }

    #[test]
    fn a_nogood_widened_by_its_cube_holds_in_the_whole_space() {
        let c = two();
        let cube = lits(c.cube(0));
        assert_eq!(c.widen(0, &[8]), [&[8][..], &cube].concat());
        assert_eq!(c.widen(0, &[cube[1], 8]), vec![cube[1], 8, cube[0]], "a cube literal once");
        assert_eq!(Cubes::whole(1).widen(0, &[8, 11]), vec![8, 11]);
    }

    #[test]
    fn without_joining_an_idle_device_stays_idle() {
        let mut c = Cubes { join: false, ..two() };
        close_at(&mut c, 0);
        close_at(&mut c, 0);
        // The queue is empty: device 0 does not join device 1's cube.
        assert_eq!(close_at(&mut c, 0), Vec::<usize>::new());
        assert_eq!(c.cube(0), None);
        let last = c.cube(1).unwrap().to_vec();
        assert_eq!(c.close(&last), Some(vec![]));
        assert!(c.all_closed());
    }

    #[test]
    fn closing_every_cube_closes_the_space() {
        let mut c = two();
        assert_eq!(lits(c.cube(0)), vec![6, 10]);
        assert_eq!(close_at(&mut c, 0), vec![0]);
        assert_eq!(close_at(&mut c, 0), vec![0]);
        // The queue is empty: device 0 joins device 1's cube, and closing it frees both.
        assert_eq!(close_at(&mut c, 0), vec![0]);
        assert_eq!(c.cube(0), c.cube(1));
        assert!(!c.all_closed());
        let last = c.cube(1).unwrap().to_vec();
        assert_eq!(c.close(&last), Some(vec![]));
        assert!(c.all_closed());
        assert_eq!(c.close(&last), None, "a stale report changes nothing");
    }

    #[test]
    fn a_stale_report_does_not_close_a_new_cube() {
        let mut c = two();
        let (first, second) = (c.cube(0).unwrap().to_vec(), c.cube(1).unwrap().to_vec());
        // Both devices prove their cubes in one round; device 0's report moves it on first.
        assert_eq!(c.close(&first), Some(vec![0]));
        let new0 = c.cube(0).unwrap().to_vec();
        assert_eq!(c.close(&first), None, "device 0's new cube is not closed by the old report");
        assert_eq!(c.cube(0), Some(&new0[..]));
        assert_eq!(c.close(&second), Some(vec![1]));
        assert!(!c.all_closed());
    }

    #[test]
    fn a_failed_device_gives_its_cube_back() {
        let mut c = two();
        let mine = lits(c.cube(1));
        assert!(c.failed(1).is_empty());
        assert_eq!(close_at(&mut c, 0), vec![0]);
        assert_eq!(lits(c.cube(0)), mine, "device 0 takes the failed device's cube first");
        close_at(&mut c, 0);
        close_at(&mut c, 0);
        assert!(!c.all_closed());
        assert!(close_at(&mut c, 0).is_empty());
        assert!(c.all_closed() && c.any_live());
    }

    #[test]
    fn carried_nogoods_hold_in_the_whole_space() {
        let c = two();
        // Device 0 assumes T3, T5; device 1 F3, T5.
        assert_eq!(c.carry(0, 1, &[20, 23]), None, "T3 is false at device 1: the nogood holds there");
        let mut c = c;
        c.on[1] = Some(vec![Lit::new(7, true)]);
        assert_eq!(c.carry(0, 1, &[20, 23]), Some(vec![20, 23, 6, 10]));
        assert_eq!(c.carry(0, 1, &[20, 6]), Some(vec![20, 6, 10]));
        assert_eq!(c.carry(0, 1, &[7]), None, "F3 with T3: trivial");
        assert_eq!(c.carry(0, 1, &[20, 22, 24, 26, 28, 30, 32]), None, "too long");
        let w = Cubes::whole(2);
        assert_eq!(w.carry(0, 1, &[20, 23]), Some(vec![20, 23]));
    }

    #[test]
    fn whole_space_closes_at_once() {
        let mut w = Cubes::whole(3);
        assert_eq!(w.close(&[]), Some(vec![]));
        assert!(w.all_closed());
    }
}
