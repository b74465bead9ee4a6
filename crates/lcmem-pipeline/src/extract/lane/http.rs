//! One JSON POST with bounded retries: a 429 or a 5xx is tried again after a
//! backoff (honouring `Retry-After`, within a bound); a timeout is not, so a
//! seal waits at most about one timeout per request.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::LaneError;

/// The most attempts one request makes.
pub const ATTEMPTS: u32 = 3;
/// The largest answer body read, in bytes; a larger one is refused.
pub const MAX_BODY: u64 = 1 << 20;
/// The longest wait between attempts, whatever `Retry-After` asks.
const MAX_BACKOFF: Duration = Duration::from_secs(8);

/// A JSON POST and what came of it.
pub struct Posted {
    pub body: Value,
    pub attempts: u32,
}

/// `timeout` bounds the whole call, every attempt and wait included. A 429
/// or 5xx is retried unless `final_error(status, body)` says the request
/// itself was refused (then no retry can help).
pub fn post(
    url: &str,
    headers: &[(&str, String)],
    body: &Value,
    timeout: Duration,
    final_error: fn(u16, &str) -> bool,
) -> Result<Posted, LaneError> {
    let text = body.to_string();
    let started = Instant::now();
    let mut attempt = 0;
    loop {
        attempt += 1;
        // Each attempt gets what is left of the timeout, so retries never
        // stretch the seal past it.
        let left = timeout.saturating_sub(started.elapsed()).max(Duration::from_millis(1));
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(left))
            .http_status_as_error(false)
            .user_agent(concat!("lcmem/", env!("CARGO_PKG_VERSION")))
            .build()
            .into();
        let mut request = agent.post(url).header("content-type", "application/json");
        for (name, value) in headers {
            request = request.header(*name, value);
        }
        let (error, wait) = match request.send(&text) {
            Ok(mut response) => {
                let status = response.status().as_u16();
                let wait = response
                    .headers()
                    .get("retry-after")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.trim().parse::<u64>().ok())
                    .map(Duration::from_secs);
                let read = response.body_mut().with_config().limit(MAX_BODY).read_to_string();
                let body = match read {
                    Ok(body) => body,
                    Err(ureq::Error::BodyExceedsLimit(_)) => return Err(LaneError::Oversized(MAX_BODY)),
                    Err(e) => return Err(transport(e, timeout)),
                };
                if (200..300).contains(&status) {
                    let body = serde_json::from_str(&body)
                        .map_err(|e| LaneError::Malformed(format!("the response is not JSON ({e})")))?;
                    return Ok(Posted { body, attempts: attempt });
                }
                let refused = final_error(status, &body);
                let error = LaneError::Status { code: status, body: crate::extract::clip(body.trim(), 200) };
                if status != 429 && status < 500 || refused {
                    return Err(error);
                }
                (error, wait)
            }
            Err(e @ ureq::Error::Timeout(_)) => return Err(transport(e, timeout)),
            Err(e) => (transport(e, timeout), None),
        };
        let backoff = wait.unwrap_or(Duration::from_millis(400 << attempt)).min(MAX_BACKOFF);
        if attempt >= ATTEMPTS || started.elapsed() + backoff > timeout {
            return Err(LaneError::GaveUp { attempts: attempt, last: Box::new(error) });
        }
        std::thread::sleep(backoff);
    }
}

fn transport(error: ureq::Error, timeout: Duration) -> LaneError {
    match error {
        ureq::Error::Timeout(_) => LaneError::Timeout(timeout),
        other => LaneError::Transport(other.to_string()),
    }
}
