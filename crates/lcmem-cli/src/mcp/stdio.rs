//! Stdio with a parse-error answer. rmcp's transport skips a line that is not
//! JSON without a word (on purpose: see rust-sdk issue 938); a client that
//! sent one would wait for ever. This sits between stdin/stdout and rmcp:
//! every line that is JSON goes on to rmcp as it is, every line that is not
//! is answered here with a JSON-RPC parse error (-32700, `id: null`), and
//! rmcp's replies and these answers reach stdout whole lines at a time. The
//! bad line is never echoed. Requests whose params cannot fit their method
//! are answered here too, and rmcp's word for them reworded
//! ([`super::params`]).

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// Pipe size between this layer and rmcp.
const PIPE: usize = 1 << 16;

/// The reader and writer to serve rmcp on, and the task that writes stdout
/// (await it once the service ends, so that every reply is out).
pub fn transport() -> (DuplexStream, DuplexStream, JoinHandle<()>) {
    wrap(tokio::io::stdin(), tokio::io::stdout())
}

/// [`transport`] over any reader and writer.
pub fn wrap<R, W>(input: R, mut output: W) -> (DuplexStream, DuplexStream, JoinHandle<()>)
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (server_in, mut feed) = tokio::io::duplex(PIPE);
    let (server_out, replies) = tokio::io::duplex(PIPE);
    let (lines, mut outbox) = mpsc::unbounded_channel::<Vec<u8>>();

    let errors = lines.clone();
    tokio::spawn(async move {
        let mut input = BufReader::new(input);
        let mut line = Vec::new();
        let mut number = 0usize;
        loop {
            line.clear();
            match input.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            number += 1;
            let body = line.strip_prefix(b"\xef\xbb\xbf".as_slice()).unwrap_or(&line);
            let is_blank = body.iter().all(u8::is_ascii_whitespace);
            let answer = match serde_json::from_slice::<Value>(body) {
                Err(e) if !is_blank => Some(parse_error(number, &e)),
                Err(_) => None,
                Ok(message) => super::params::check(&message).map(|reply| line_of(&reply)),
            };
            match answer {
                Some(answer) => {
                    let _ = errors.send(answer);
                }
                None => {
                    if feed.write_all(&line).await.is_err() {
                        break;
                    }
                    if !line.ends_with(b"\n") && feed.write_all(b"\n").await.is_err() {
                        break;
                    }
                }
            }
        }
        // Dropping `feed` is rmcp's end of input.
    });

    tokio::spawn(async move {
        let mut replies = BufReader::new(replies);
        loop {
            let mut line = Vec::new();
            match replies.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if let Ok(mut reply) = serde_json::from_slice::<Value>(&line)
                        && super::params::reword(&mut reply)
                    {
                        line = line_of(&reply);
                    }
                    if lines.send(line).is_err() {
                        break;
                    }
                }
            }
        }
    });

    let writer = tokio::spawn(async move {
        while let Some(line) = outbox.recv().await {
            if output.write_all(&line).await.is_err() || output.flush().await.is_err() {
                break;
            }
        }
    });
    (server_in, server_out, writer)
}

/// The answer to a line that is not JSON: where it went wrong, not what it said.
fn parse_error(number: usize, error: &serde_json::Error) -> Vec<u8> {
    let message = format!(
        "Parse error: input line {number} is not JSON (column {}); send one JSON-RPC message per line",
        error.column()
    );
    line_of(&serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": message}}))
}

fn line_of(message: &Value) -> Vec<u8> {
    let mut line = message.to_string().into_bytes();
    line.push(b'\n');
    line
}
