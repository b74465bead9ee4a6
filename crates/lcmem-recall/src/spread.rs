//! The first page spread over sessions. A question whose answer lies in two
//! sessions ("what did we decide about X, and when did it change?") needs
//! both on the page a person or an agent reads; a ranking left alone fills
//! that page with the turns of the session that says most about X. So the
//! last few places of the page go to sessions the page does not show yet,
//! when one of them has a hit scoring nearly as well as the hit it would
//! displace. The head of the page is the ranking as it is; what is displaced
//! moves just below the page, never off the list.

/// How a hit of the ranking is seen by the spread: its session (none for a
/// journal line or a fact, which count as a session of their own), and its
/// score.
pub(super) trait Spread {
    fn session(&self) -> Option<u32>;
    fn score(&self) -> f64;
    fn lift_to(&mut self, score: f64);
}

/// In the last `fresh` places of the first `page` hits of `hits` (best
/// first), a hit of a session already shown above it gives its place to the
/// best hit below from a session not yet on the page (or a journal line or a
/// fact), when that scores at least `share` of it. A hit moved up takes the
/// displaced hit's score, so the scores still fall down the list. `fresh` 0
/// leaves the ranking alone.
pub(super) fn spread<T: Spread>(hits: &mut Vec<T>, page: usize, fresh: usize, share: f64) {
    let page = page.min(hits.len());
    let shown = |h: &T, above: &[T]| h.session().is_some_and(|s| above.iter().any(|a| a.session() == Some(s)));
    for place in page.saturating_sub(fresh)..page {
        if !shown(&hits[place], &hits[..place]) {
            continue;
        }
        let floor = share * hits[place].score();
        let fresh_hit =
            (place + 1..hits.len()).find(|&j| !shown(&hits[j], &hits[..place])).filter(|&j| hits[j].score() >= floor);
        if let Some(j) = fresh_hit {
            let mut moved = hits.remove(j);
            moved.lift_to(hits[place].score());
            hits.insert(place, moved);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    struct H(Option<u32>, f64);
    impl Spread for H {
        fn session(&self) -> Option<u32> {
            self.0
        }
        fn score(&self) -> f64 {
            self.1
        }
        fn lift_to(&mut self, score: f64) {
            self.1 = self.1.max(score);
        }
    }

    fn sessions(hits: &[H]) -> Vec<Option<u32>> {
        hits.iter().map(|h| h.0).collect()
    }

    #[test]
    fn the_last_places_go_to_sessions_not_yet_on_the_page() {
        let mut hits = vec![H(Some(1), 10.0), H(Some(1), 9.0), H(Some(1), 8.0), H(Some(2), 7.0), H(None, 6.0)];
        spread(&mut hits, 4, 2, 0.5);
        // The head is left as it is; places 3 and 4 go to session 2 and to a
        // journal line or fact; session 1's third hit moves below the page.
        assert_eq!(sessions(&hits), [Some(1), Some(1), Some(2), None, Some(1)]);
        // Scores still fall down the list; nothing was dropped.
        assert!(hits.windows(2).all(|w| w[0].1 >= w[1].1), "{hits:?}");
        assert_eq!(hits.len(), 5);
    }

    #[test]
    fn a_session_on_the_page_already_keeps_its_place_below() {
        let mut hits = vec![H(Some(1), 10.0), H(Some(2), 9.0), H(Some(1), 8.0), H(Some(2), 7.0), H(Some(3), 6.0)];
        spread(&mut hits, 5, 3, 0.5);
        assert_eq!(sessions(&hits), [Some(1), Some(2), Some(3), Some(1), Some(2)]);
    }

    #[test]
    fn a_weak_hit_is_not_lifted_and_no_fresh_places_change_nothing() {
        let mut hits = vec![H(Some(1), 10.0), H(Some(1), 9.0), H(Some(1), 8.0), H(Some(2), 1.0)];
        spread(&mut hits, 4, 2, 0.5);
        assert_eq!(sessions(&hits), [Some(1), Some(1), Some(1), Some(2)]);
        let mut hits = vec![H(Some(1), 10.0), H(Some(1), 9.0), H(Some(2), 8.0)];
        spread(&mut hits, 2, 0, 0.5);
        assert_eq!(sessions(&hits), [Some(1), Some(1), Some(2)]);
        spread(&mut hits, 2, 1, 0.5);
        assert_eq!(sessions(&hits), [Some(1), Some(2), Some(1)]);
    }
}
