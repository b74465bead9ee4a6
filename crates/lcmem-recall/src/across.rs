//! Recall across projects: the stores of other projects under the same home,
//! each searched as [`Searcher`] searches one, their hits merged best first
//! and each labelled with its project. Off unless the asking project's
//! `recall.cross_project` is on (a store may hold what one client must not
//! see of another's); never part of a digest.

use std::collections::{BTreeMap, HashSet};

use serde::Serialize;

use super::query::Ranked;
use super::{Answer, Hit, Progress, Query, Searcher};
use crate::diagnostic::Diagnostic;
use crate::error::{Error, QueryProblem, Result};
use crate::project::{self, Project};
use crate::store::Store;

/// Which projects a query searches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Projects {
    /// The asking project alone.
    This,
    /// Every project with a store under the home.
    All,
    /// These projects, by their stores' slugs (`this` names the asking one).
    Named(Vec<String>),
}

/// A hit and the project it was found in.
#[derive(Debug, Clone, Serialize)]
pub struct ProjectHit {
    /// The project's store slug (`api-1a2b3c4d`).
    pub project: String,
    #[serde(flatten)]
    pub hit: Hit,
}

/// What a search across projects found: the hits, best first, and each
/// project's own answer (its coverage and diagnostics).
#[derive(Debug)]
pub struct AcrossAnswer {
    pub hits: Vec<ProjectHit>,
    pub answers: Vec<(String, Answer)>,
}

/// Searchers for the projects under one home, kept warm between queries.
pub struct Across {
    this: Store,
    searchers: BTreeMap<String, Searcher>,
    make: fn(Store) -> Searcher,
}

impl Across {
    /// Searches from the project `this` searches (with it, for that
    /// project); `make` turns another project's store into its searcher
    /// (read-only, long-lived, …).
    pub fn new(this: Searcher, make: fn(Store) -> Searcher) -> Across {
        let store = this.store().clone();
        let searchers = BTreeMap::from([(store.project().slug.clone(), this)]);
        Across { this: store, searchers, make }
    }

    /// The slugs `which` names, checked: the asking project's alone needs no
    /// permission; any other needs `recall.cross_project` on.
    pub fn resolve(&self, which: &Projects) -> Result<Vec<String>> {
        let this = self.this.project().slug.clone();
        let home = self.this.home();
        let slugs = match which {
            Projects::This => return Ok(vec![this]),
            Projects::All => project::slugs(home)?,
            Projects::Named(named) => {
                let known = project::slugs(home)?;
                let mut slugs: Vec<String> = Vec::new();
                for slug in named.iter().map(|s| if s == "this" { &this } else { s }) {
                    if *slug != this && !known.contains(slug) {
                        return Err(Error::BadQuery(QueryProblem::UnknownProject(slug.clone())));
                    }
                    if !slugs.contains(slug) {
                        slugs.push(slug.clone());
                    }
                }
                slugs
            }
        };
        if slugs.iter().any(|s| *s != this) && !self.this.settings()?.recall_cross_project {
            return Err(Error::BadQuery(QueryProblem::CrossProjectOff));
        }
        Ok(slugs)
    }

    /// Answers `query` in each project `which` names; the hits of all are
    /// merged by score, each project's own order kept, and cut to the query's
    /// limit. The asking project alone answers exactly as its searcher does.
    pub fn search(&mut self, query: &Query, which: &Projects, progress: &mut dyn Progress) -> Result<AcrossAnswer> {
        let slugs = self.resolve(which)?;
        self.open_searchers(&slugs);
        let ranked = self.rank_each(&slugs, query, progress)?;
        let (hits, built) = self.build_hits(&ranked, query)?;
        self.trim(&ranked);
        let mut answers: Vec<(String, Answer)> = ranked
            .into_iter()
            .zip(built)
            .map(|((slug, one), built)| {
                let mut diagnostics = one.diagnostics;
                diagnostics.extend(built);
                (slug, Answer { hits: Vec::new(), coverage: one.coverage, diagnostics })
            })
            .collect();
        let mut labelled = Vec::with_capacity(hits.len());
        for (p, _, hit) in hits {
            answers[p].1.hits.push(hit.clone());
            labelled.push(ProjectHit { project: answers[p].0.clone(), hit });
        }
        Ok(AcrossAnswer { hits: labelled, answers })
    }

    /// Makes a searcher for each project of `slugs` that has none yet (a
    /// slug whose project cannot be found is passed over).
    fn open_searchers(&mut self, slugs: &[String]) {
        for slug in slugs {
            if self.searchers.contains_key(slug) {
                continue;
            }
            let Some(project) = Project::from_slug(self.this.home(), slug) else { continue };
            self.searchers.insert(slug.clone(), (self.make)(Store::new(self.this.home(), project)));
        }
    }

    /// Ranks `query` in each project of `slugs` that has a searcher, in the
    /// searchers' order; the first error of any ends the search.
    fn rank_each(
        &mut self,
        slugs: &[String],
        query: &Query,
        progress: &mut dyn Progress,
    ) -> Result<Vec<(String, Ranked)>> {
        // The projects are searched side by side, a share of them per core;
        // progress is reported for the asking project's search only.
        let mut asked: Vec<(&String, &mut Searcher)> =
            self.searchers.iter_mut().filter(|(slug, _)| slugs.contains(slug)).collect();
        let this = &self.this.project().slug.clone();
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let share = asked.len().div_ceil(cores).max(1);
        let results: Vec<(String, Result<Ranked>)> = std::thread::scope(|scope| {
            let mut progress = Some(progress);
            let workers: Vec<_> = asked
                .chunks_mut(share)
                .map(|chunk| {
                    let mine = match chunk.iter().any(|(slug, _)| **slug == *this) {
                        true => progress.take(),
                        false => None,
                    };
                    scope.spawn(move || {
                        let mut quiet = super::Quiet;
                        let mut mine = mine;
                        chunk
                            .iter_mut()
                            .map(|(slug, searcher)| {
                                let progress: &mut dyn Progress = match mine.as_mut() {
                                    Some(p) if **slug == *this => &mut **p,
                                    _ => &mut quiet,
                                };
                                ((*slug).clone(), searcher.rank(query, progress))
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            workers.into_iter().flat_map(|w| w.join().expect("a project's search does not panic")).collect()
        });
        let mut ranked = Vec::with_capacity(results.len());
        for (slug, one) in results {
            ranked.push((slug, one?));
        }
        Ok(ranked)
    }

    /// Builds the hits that make the merged list (see [`Built`]). Only those
    /// are built: a hit costs more than its rank (its text read, its snippet
    /// found).
    fn build_hits(&self, ranked: &[(String, Ranked)], query: &Query) -> Result<Built> {
        let mut merge = Merge::new(ranked);
        let mut hits: Vec<(usize, usize, Hit)> = Vec::new();
        let mut built: Vec<Vec<Diagnostic>> = vec![Vec::new(); ranked.len()];
        while hits.len() < query.limit {
            let picked = merge.next(query.limit - hits.len());
            if picked.is_empty() {
                break;
            }
            for (p, (slug, one)) in ranked.iter().enumerate() {
                let which: Vec<usize> = picked.iter().filter(|(q, _)| *q == p).map(|(_, i)| *i).collect();
                if which.is_empty() {
                    continue;
                }
                let (made, diagnostics) = self.searchers[slug].hits(one, &which)?;
                built[p].extend(diagnostics);
                hits.extend(which.into_iter().zip(made).filter_map(|(i, h)| h.map(|h| (p, i, h))));
            }
            // Best first across projects, each project's own order kept.
            hits.sort_by_key(|&(p, i, _)| merge.position(p, i));
        }
        Ok((hits, built))
    }

    /// Keeps the mapped pages of the projects searched within their page
    /// budgets: each keeps its own budget, and the process's mappings are
    /// gone over once, against the sum.
    fn trim(&self, ranked: &[(String, Ranked)]) {
        let budgeted: Vec<(std::path::PathBuf, u64)> =
            ranked.iter().filter_map(|(slug, _)| self.searchers.get(slug)?.budgeted()).collect();
        if !budgeted.is_empty() {
            let dirs: Vec<&std::path::Path> = budgeted.iter().map(|(d, _)| d.as_path()).collect();
            super::os::trim(&dirs, budgeted.iter().map(|(_, b)| b).sum());
        }
    }
}

/// The hits built for a merged list, best first across projects, each with
/// its project's place in the rankings and its unit's place in that
/// project's ranking; and what building them reported, per project.
type Built = (Vec<(usize, usize, Hit)>, Vec<Vec<Diagnostic>>);

/// The projects' rankings as one: each time the best of the projects' next
/// units, so that every project's own order is kept; one of the person's
/// facts, in every project's ranking, is taken once.
struct Merge<'a> {
    ranked: &'a [(String, Ranked)],
    next: Vec<usize>,
    /// Every unit taken so far, in order: (project, unit).
    order: Vec<(usize, usize)>,
    persons_taken: HashSet<&'a str>,
}

impl<'a> Merge<'a> {
    fn new(ranked: &'a [(String, Ranked)]) -> Merge<'a> {
        Merge { ranked, next: vec![0; ranked.len()], order: Vec::new(), persons_taken: HashSet::new() }
    }

    /// The next `n` units, best first.
    fn next(&mut self, n: usize) -> Vec<(usize, usize)> {
        let mut picked = Vec::new();
        while picked.len() < n {
            let head = |p: usize| self.ranked[p].1.units.get(self.next[p]).map(|(_, score)| *score);
            let Some(best) = (0..self.ranked.len()).filter(|&p| head(p).is_some()).max_by(|&a, &b| {
                // The earlier project wins a tie, so that the merge is stable.
                head(a).unwrap_or(f64::MIN).total_cmp(&head(b).unwrap_or(f64::MIN)).then(b.cmp(&a))
            }) else {
                break;
            };
            let i = self.next[best];
            self.next[best] += 1;
            if let Some(id) = &self.ranked[best].1.persons[i]
                && !self.persons_taken.insert(id.as_str())
            {
                continue;
            }
            self.order.push((best, i));
            picked.push((best, i));
        }
        picked
    }

    /// Where a taken unit stands in the merged order.
    fn position(&self, project: usize, unit: usize) -> usize {
        self.order.iter().position(|&o| o == (project, unit)).unwrap_or(usize::MAX)
    }
}
