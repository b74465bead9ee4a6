//! The model lanes: extraction (and supersede) by a model the user chooses
//! in settings (`extract.lane`), behind the same [`Extractor`] trait as the
//! offline lane.
//!
//! Every lane runs the offline lane first: its findings go into the request
//! as evidence and bound the answer ([`answer::combine`]), and they are what
//! is written when the model cannot be used. Any failure (no key, the daily
//! cap, a timeout, a refusal, an answer off the schema, a 429 or 5xx after
//! bounded retries) falls back to the offline lane, and the journal line says
//! which lane wrote it, why a fallback happened and what was spent. Nothing
//! here trusts the model: its strings pass the same guard and redactor at the
//! seal boundary as any extractor's.

mod answer;
mod anthropic;
mod command;
pub mod cost;
pub(crate) mod grounding;
mod http;
mod judge;
mod openai;
pub mod prompt;

use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use crate::journal::Cost;
pub use command::LANE_ENV;
use cost::Price;
use http::Posted;

use super::offline::OfflineExtractor;
use super::{ExtractError, ExtractInput, ExtractOutput, Extractor};
use crate::config::ExtractSettings;
use crate::error::Result;
use crate::facts::ConflictJudge;
use crate::guards::Guards;
use crate::store::Store;

/// The most tokens a lane may answer with.
pub const MAX_ANSWER_TOKENS: u32 = 1024;

/// Who wrote an extractor's output when it was not simply the extractor
/// itself: a model lane, or the offline lane after a fallback.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct LaneReport {
    /// Recorded as the journal line's `extractor`: `openai:qwen2.5-coder`,
    /// or `offline-v1` after a fallback.
    pub extractor: String,
    /// Why the model's answer was not used, when it was not.
    pub fallback: Option<String>,
    /// What was spent, when a model was asked (or would have been).
    pub cost: Option<Cost>,
}

/// Why a model lane could not give an answer.
#[derive(Debug, Clone, thiserror::Error, PartialEq)]
pub enum LaneError {
    #[error("no key: the environment variable {0} is not set")]
    NoKey(String),
    #[error("{0} is not set")]
    Unset(&'static str),
    #[error("timed out after {} s", .0.as_secs_f64().round())]
    Timeout(Duration),
    #[error("HTTP {code}: {body}")]
    Status { code: u16, body: String },
    #[error("gave up after {attempts} attempts; the last: {last}")]
    GaveUp { attempts: u32, last: Box<LaneError> },
    #[error("could not reach it: {0}")]
    Transport(String),
    #[error("malformed answer: {0}")]
    Malformed(String),
    #[error("the model refused: {0}")]
    Refused(String),
    #[error("the answer is larger than {0} bytes")]
    Oversized(u64),
    #[error("{0}")]
    Command(String),
    #[error("the daily cap is reached: ${spent:.4} of ${cap:.2} spent today (extract.max_usd_per_day)")]
    DailyCap { spent: f64, cap: f64 },
}

impl LaneError {
    /// What happened, in a few words of our own: used in place of the full
    /// reason when that quotes text (a refusal, a server's error body) that
    /// reads as an instruction.
    fn label(&self) -> &'static str {
        match self {
            LaneError::NoKey(_) => "no key",
            LaneError::Unset(what) => what,
            LaneError::Timeout(_) => "timed out",
            LaneError::Status { .. } => "an HTTP error",
            LaneError::GaveUp { .. } => "gave up after retries",
            LaneError::Transport(_) => "could not reach it",
            LaneError::Malformed(_) => "malformed answer",
            LaneError::Refused(_) => "the model refused",
            LaneError::Oversized(_) => "the answer is too large",
            LaneError::Command(_) => "the command failed",
            LaneError::DailyCap { .. } => "the daily cap is reached",
        }
    }

    /// Whether the model did read the request (so its tokens were spent).
    fn was_read(&self) -> bool {
        matches!(self, LaneError::Malformed(_) | LaneError::Refused(_) | LaneError::Oversized(_))
    }
}

/// What a lane answered: the answer's JSON and what it says it used.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    pub answer: Value,
    pub tokens_in: Option<u64>,
    pub tokens_out: Option<u64>,
    /// What the lane itself says the call cost (Claude Code's JSON output).
    pub usd: Option<f64>,
}

/// The protocols a lane can speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Protocol {
    OpenAi,
    Anthropic,
    Command,
}

/// A configured lane: where it goes, what it asks for, and its bounds.
struct Lane {
    protocol: Protocol,
    /// `openai:MODEL`, `anthropic:MODEL`, `command:PROGRAM`.
    name: String,
    endpoint: String,
    model: String,
    command: String,
    key: std::result::Result<Option<String>, LaneError>,
    timeout: Duration,
    budget_tokens: u32,
    price: Price,
    guards: Guards,
    /// Spend today, from the journal at start and added to by every call.
    spent: Cell<f64>,
    cap: f64,
}

/// The extractor `store`'s settings choose: the offline lane unless
/// `extract.lane` names a model lane. The offline lane opens no connection.
pub fn chosen(store: &Store, now: Timestamp) -> Result<Box<dyn Extractor>> {
    let settings = store.settings()?;
    if settings.extract.lane == "offline" {
        return Ok(Box::new(OfflineExtractor));
    }
    let prices = store.config_files().prices()?;
    let spent = cost::spent_today(&crate::journal::Journal::of(store)?, now);
    Ok(Box::new(ModelLane::new(&settings.extract, &prices, *store.guards(), spent)))
}

/// What `lcmem config` shows of the lane: never the key, only whether the
/// variable that should hold it is set.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct LaneStatus {
    pub lane: String,
    pub model: String,
    pub endpoint: String,
    /// The variable the key is read from, when the lane needs one.
    pub key_env: Option<String>,
    pub key_present: bool,
    pub local: bool,
}

pub fn status(settings: &ExtractSettings) -> LaneStatus {
    let protocol = protocol(&settings.lane);
    let endpoint = endpoint(protocol, settings);
    let key_env = protocol.and_then(|p| key_env(p, settings));
    LaneStatus {
        lane: settings.lane.clone(),
        model: settings.model.clone(),
        endpoint: if protocol == Some(Protocol::Command) || protocol.is_none() {
            String::new()
        } else {
            endpoint.clone()
        },
        key_present: key_env.as_deref().is_some_and(|v| crate::ambient::var(v).is_some()),
        key_env,
        local: is_local(&endpoint),
    }
}

fn protocol(lane: &str) -> Option<Protocol> {
    match lane {
        "openai" => Some(Protocol::OpenAi),
        "anthropic" => Some(Protocol::Anthropic),
        "command" => Some(Protocol::Command),
        _ => None,
    }
}

fn endpoint(protocol: Option<Protocol>, settings: &ExtractSettings) -> String {
    match (settings.endpoint.trim(), protocol) {
        ("", Some(Protocol::OpenAi)) => openai::DEFAULT_ENDPOINT.to_string(),
        ("", Some(Protocol::Anthropic)) => anthropic::DEFAULT_ENDPOINT.to_string(),
        (set, _) => set.to_string(),
    }
}

/// The variable a lane's key is read from: `extract.api_key_env`, else the
/// provider's usual one; none for a command, or for a local endpoint unless
/// one is named.
fn key_env(protocol: Protocol, settings: &ExtractSettings) -> Option<String> {
    let named = settings.api_key_env.trim();
    if !named.is_empty() {
        return Some(named.to_string());
    }
    match protocol {
        Protocol::Command => None,
        _ if is_local(&endpoint(Some(protocol), settings)) => None,
        Protocol::OpenAi => Some("OPENAI_API_KEY".into()),
        Protocol::Anthropic => Some("ANTHROPIC_API_KEY".into()),
    }
}

/// Whether an endpoint is on this machine (nothing leaves it).
pub fn is_local(endpoint: &str) -> bool {
    let rest = endpoint.split_once("://").map_or(endpoint, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = match host_port.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => host_port.split(':').next().unwrap_or(""),
    };
    host.eq_ignore_ascii_case("localhost") || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Reads JSON out of a model's text: the whole text, else a fenced block,
/// else the span from the first `{` to the last `}`.
pub(crate) fn json_in(text: &str) -> std::result::Result<Value, LaneError> {
    let trimmed = text.trim();
    let unfenced = trimmed
        .strip_prefix("```json")
        .or_else(|| trimmed.strip_prefix("```"))
        .and_then(|t| t.trim_end().strip_suffix("```"))
        .unwrap_or(trimmed);
    let spanned = match (unfenced.find('{'), unfenced.rfind('}')) {
        (Some(a), Some(b)) if a < b => unfenced.get(a..=b).unwrap_or(unfenced),
        _ => unfenced,
    };
    [trimmed, unfenced, spanned]
        .iter()
        .find_map(|t| serde_json::from_str::<Value>(t).ok())
        .ok_or_else(|| LaneError::Malformed(format!("not JSON ({} characters)", trimmed.chars().count())))
}

/// A model lane as an [`Extractor`].
pub struct ModelLane {
    lane: Rc<Lane>,
    judge: judge::ModelJudge,
}

impl ModelLane {
    fn new(settings: &ExtractSettings, prices: &[(String, f64, f64)], guards: Guards, spent: f64) -> ModelLane {
        let protocol = protocol(&settings.lane).unwrap_or(Protocol::OpenAi);
        let endpoint = endpoint(Some(protocol), settings);
        let program = settings.command.split_whitespace().next().unwrap_or("").rsplit('/').next().unwrap_or("");
        let name = match protocol {
            Protocol::OpenAi => format!("openai:{}", settings.model),
            Protocol::Anthropic => format!("anthropic:{}", settings.model),
            Protocol::Command if settings.model.is_empty() => format!("command:{program}"),
            Protocol::Command => format!("command:{program}:{}", settings.model),
        };
        let key = match key_env(protocol, settings) {
            None => Ok(None),
            Some(var) => match crate::ambient::var(&var) {
                Some(key) => Ok(Some(key)),
                None => Err(LaneError::NoKey(var)),
            },
        };
        let local = protocol != Protocol::Command && is_local(&endpoint);
        let lane = Rc::new(Lane {
            protocol,
            name,
            price: cost::price_of(&settings.model, local, prices),
            endpoint,
            model: settings.model.clone(),
            command: settings.command.clone(),
            key,
            timeout: Duration::from_secs(u64::from(settings.timeout_secs.max(1))),
            budget_tokens: settings.budget_tokens.max(1000),
            guards,
            spent: Cell::new(spent),
            cap: settings.max_usd_per_day,
        });
        ModelLane { judge: judge::ModelJudge::new(Rc::clone(&lane)), lane }
    }
}

impl Lane {
    /// Sends `request` and reads the reply, recording what it cost in `cost`.
    fn ask(&self, request: &prompt::Request, cost: &mut Cost) -> std::result::Result<Reply, LaneError> {
        self.ask_within(request, cost, self.timeout)
    }

    /// [`Lane::ask`] within `timeout`.
    fn ask_within(
        &self,
        request: &prompt::Request,
        cost: &mut Cost,
        timeout: Duration,
    ) -> std::result::Result<Reply, LaneError> {
        cost.asked.clone_from(&self.name);
        cost.priced_by = self.price.by.word().to_string();
        match self.protocol {
            Protocol::OpenAi | Protocol::Anthropic if self.model.trim().is_empty() => {
                return Err(LaneError::Unset("extract.model"));
            }
            Protocol::Command if self.command.trim().is_empty() => return Err(LaneError::Unset("extract.command")),
            _ => {}
        }
        let key = self.key.clone()?;
        let estimate = request.estimated_tokens();
        let spent = self.spent.get();
        let dearest = self.price.usd(estimate, u64::from(MAX_ANSWER_TOKENS));
        if !self.price.is_free() && spent + dearest > self.cap {
            return Err(LaneError::DailyCap { spent, cap: self.cap });
        }
        let started = Instant::now();
        let posted = self.send(request, key.as_deref(), timeout, started);
        cost.ms += started.elapsed().as_millis() as u64;
        let result = self.count(posted, cost, estimate);
        self.spent.set(spent + cost.usd);
        result
    }

    /// Sends `request` by the lane's protocol, within `timeout` of `started`,
    /// and reads the reply, with the number of attempts it took.
    fn send(
        &self,
        request: &prompt::Request,
        key: Option<&str>,
        timeout: Duration,
        started: Instant,
    ) -> std::result::Result<(Reply, u32), LaneError> {
        match self.protocol {
            Protocol::OpenAi => {
                let post = |form| {
                    http::post(
                        &openai::url(&self.endpoint),
                        &openai::headers(key),
                        &openai::body(&self.model, request, MAX_ANSWER_TOKENS, form),
                        timeout.saturating_sub(started.elapsed()),
                        openai::refuses_format,
                    )
                };
                match post(openai::Form::JsonSchema) {
                    // A server that does not know `json_schema` gets the
                    // older form once; the refused request counts too.
                    Err(LaneError::Status { code, body }) if openai::refuses_format(code, &body) => {
                        post(openai::Form::JsonObject).map(|p| Posted { attempts: p.attempts + 1, ..p })
                    }
                    other => other,
                }
                .and_then(|p| openai::reply(&p.body).map(|r| (r, p.attempts)))
            }
            Protocol::Anthropic => http::post(
                &anthropic::url(&self.endpoint),
                &anthropic::headers(key),
                &anthropic::body(&self.model, request, MAX_ANSWER_TOKENS),
                timeout,
                |_, _| false,
            )
            .and_then(|p| anthropic::reply(&p.body).map(|r| (r, p.attempts))),
            Protocol::Command => command::run(&self.command, &command::text(request), timeout).map(|r| (r, 1)),
        }
    }

    /// Counts what a call cost into `cost`: the requests it took, the tokens
    /// read and written (estimated where the reply does not say) and their
    /// price; a failed call whose request was read costs that request.
    fn count(
        &self,
        posted: std::result::Result<(Reply, u32), LaneError>,
        cost: &mut Cost,
        estimate: u64,
    ) -> std::result::Result<Reply, LaneError> {
        match posted {
            Ok((reply, attempts)) => {
                cost.requests += attempts;
                let tokens_in = reply.tokens_in.unwrap_or(estimate);
                let tokens_out = reply.tokens_out.unwrap_or((reply.answer.to_string().len() / 4) as u64);
                cost.tokens_in += tokens_in;
                cost.tokens_out += tokens_out;
                match reply.usd {
                    Some(usd) => {
                        cost.usd += usd;
                        cost.priced_by = "reported".into();
                    }
                    None => cost.usd += self.price.usd(tokens_in, tokens_out),
                }
                Ok(reply)
            }
            Err(error) => {
                cost.requests += match &error {
                    LaneError::GaveUp { attempts, .. } => *attempts,
                    _ => 1,
                };
                if error.was_read() {
                    cost.tokens_in += estimate;
                    cost.usd += self.price.usd(estimate, 0);
                }
                Err(error)
            }
        }
    }
}

impl Extractor for ModelLane {
    fn name(&self) -> &str {
        &self.lane.name
    }

    fn extract(&self, input: &ExtractInput) -> std::result::Result<ExtractOutput, ExtractError> {
        let offline = OfflineExtractor.extract(input)?;
        let request = prompt::build(input, &offline, &self.lane.guards, self.lane.budget_tokens);
        let mut cost = Cost::default();
        let answer = self
            .lane
            .ask(&request, &mut cost)
            .and_then(|reply| answer::read(reply.answer).map_err(LaneError::Malformed));
        let cost = Some(cost).filter(|c| !c.asked.is_empty());
        Ok(match answer {
            Ok(answer) => ExtractOutput {
                lane: Some(LaneReport { extractor: self.lane.name.clone(), fallback: None, cost }),
                ..answer::combine(answer, offline.clone(), &grounding::Evidence::of(&request.user))
            }
            .bounded(),
            Err(error) => {
                let said = format!("{}: {error}", self.lane.name);
                let fallback = if (self.lane.guards.is_instruction)(&said) {
                    format!("{}: {} (its words withheld: they read as an instruction)", self.lane.name, error.label())
                } else {
                    said
                };
                ExtractOutput {
                    lane: Some(LaneReport {
                        extractor: OfflineExtractor.name().to_string(),
                        fallback: Some(fallback),
                        cost,
                    }),
                    ..offline
                }
            }
        })
    }

    fn judge(&self) -> &dyn ConflictJudge {
        &self.judge
    }

    fn take_judge_cost(&self) -> Option<Cost> {
        self.judge.take_spent()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_endpoints_are_told_from_remote_ones() {
        for local in
            ["http://127.0.0.1:11434/v1", "http://localhost:8080/v1", "http://[::1]:9/v1", "http://u@127.0.0.1/"]
        {
            assert!(is_local(local), "{local}");
        }
        for remote in ["https://api.openai.com/v1", "https://127.0.0.1.example.com/v1", "https://openrouter.ai/api/v1"]
        {
            assert!(!is_local(remote), "{remote}");
        }
    }

    #[test]
    fn json_is_found_in_fences_and_in_prose() {
        assert_eq!(json_in("```json\n{\"a\": 1}\n```").unwrap()["a"], 1);
        assert_eq!(json_in("Here it is: {\"a\": 2} hope that helps").unwrap()["a"], 2);
        assert!(matches!(json_in("[echo] model=m"), Err(LaneError::Malformed(_))));
    }
}
