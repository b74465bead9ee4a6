//! Recall across projects: the stores of other projects under the same home,
//! each searched as [`Searcher`] searches one, their hits merged best first
//! and each labelled with its project. Off unless the asking project's
//! `recall.cross_project` is on (a store may hold what one client must not
//! see of another's); never part of a digest.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Answer, Hit, Progress, Query, Searcher};
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
    /// Searches from `this` project; `make` turns a store into the searcher
    /// each project gets (read-only, long-lived, …).
    pub fn new(this: Store, make: fn(Store) -> Searcher) -> Across {
        Across { this, searchers: BTreeMap::new(), make }
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
    /// merged by score (each project's ranking is kept within the merge) and
    /// cut to the query's limit.
    pub fn search(&mut self, query: &Query, which: &Projects, progress: &mut dyn Progress) -> Result<AcrossAnswer> {
        let slugs = self.resolve(which)?;
        for slug in &slugs {
            if self.searchers.contains_key(slug) {
                continue;
            }
            let store = if *slug == self.this.project().slug {
                self.this.clone()
            } else {
                let Some(project) = Project::from_slug(self.this.home(), slug) else { continue };
                Store::new(self.this.home(), project)
            };
            self.searchers.insert(slug.clone(), (self.make)(store));
        }
        // The projects are searched side by side, a share of them per core;
        // progress is reported for the asking project's search only.
        let mut asked: Vec<(&String, &mut Searcher)> =
            self.searchers.iter_mut().filter(|(slug, _)| slugs.contains(slug)).collect();
        let this = &self.this.project().slug.clone();
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let share = asked.len().div_ceil(cores).max(1);
        let results: Vec<(String, Result<Answer>)> = std::thread::scope(|scope| {
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
                                ((*slug).clone(), searcher.search(query, progress))
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            workers.into_iter().flat_map(|w| w.join().expect("a project's search does not panic")).collect()
        });
        let mut hits = Vec::new();
        let mut answers = Vec::new();
        for (slug, answer) in results {
            let answer = answer?;
            hits.extend(answer.hits.iter().map(|hit| ProjectHit { project: slug.clone(), hit: hit.clone() }));
            answers.push((slug, answer));
        }
        hits.sort_by(|a, b| b.hit.score.total_cmp(&a.hit.score));
        hits.truncate(query.limit);
        Ok(AcrossAnswer { hits, answers })
    }
}
