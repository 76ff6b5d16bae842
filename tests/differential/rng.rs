//! A small deterministic PRNG (SplitMix64), so a seed names the same cases on every machine and
//! every Rust version, with no dependency whose stream could change under us.

/// SplitMix64: 64 bits of state, good enough statistics for choosing test cases.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The generator of case `index` of the run seeded `seed`: a case does not depend on how
    /// many cases come before it, so case 1234 of a long run is case 1234 of any run.
    pub fn for_case(seed: u64, index: usize) -> Self {
        let mut mixer = Self::new(seed ^ (index as u64).wrapping_mul(0xA076_1D64_78BD_642F));
        Self(mixer.next_u64())
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "below(0)");
        (self.next_u64() % n as u64) as usize
    }

    /// A number in `low..=high`.
    pub fn range(&mut self, low: i64, high: i64) -> i64 {
        assert!(low <= high, "range({low}, {high})");
        low + (self.next_u64() % ((high - low) as u64 + 1)) as i64
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A copy of one of `items`.
    pub fn choose<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// `count` distinct items of `items` (fewer if there are fewer), in `items`' order.
    pub fn subset<T: Clone>(&mut self, items: &[T], count: usize) -> Vec<T> {
        let mut chosen: Vec<usize> = (0..items.len()).collect();
        // Partial Fisher-Yates: the first `count` positions hold a uniform sample.
        let count = count.min(items.len());
        for i in 0..count {
            let j = i + self.below(items.len() - i);
            chosen.swap(i, j);
        }
        let mut picked = chosen[..count].to_vec();
        picked.sort_unstable();
        picked.into_iter().map(|i| items[i].clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_gives_the_same_stream() {
        let a: Vec<u64> = (0..4).map(|_| Rng::new(7).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        let mut one = Rng::for_case(7, 3);
        let mut two = Rng::for_case(7, 3);
        assert_eq!(one.next_u64(), two.next_u64());
        assert_ne!(
            Rng::for_case(7, 3).next_u64(),
            Rng::for_case(7, 4).next_u64()
        );
    }

    #[test]
    fn splitmix_reference_values() {
        // The first outputs of SplitMix64 seeded with 0 (Vigna's reference implementation).
        let mut rng = Rng::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn ranges_stay_inside_their_bounds() {
        let mut rng = Rng::new(1);
        for _ in 0..1000 {
            let v = rng.range(-3, 5);
            assert!((-3..=5).contains(&v));
            assert!(rng.below(4) < 4);
        }
        let subset = rng.subset(&[1, 2, 3, 4, 5], 3);
        assert_eq!(subset.len(), 3);
        assert!(subset.windows(2).all(|w| w[0] < w[1]));
    }
}
