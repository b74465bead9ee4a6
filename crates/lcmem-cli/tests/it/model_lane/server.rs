//! A small HTTP server for the model-lane tests: it answers each request
//! with what the test's script says (a status, a body, a delay) and keeps
//! every request it was sent, so a test can check what left the process.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

/// One request as the server read it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub path: String,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Seen {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap()
    }
}

/// What to answer.
pub struct Answer {
    pub status: u16,
    pub body: String,
    pub delay: Duration,
    pub headers: Vec<(&'static str, String)>,
}

impl Answer {
    pub fn ok(body: Value) -> Answer {
        Answer { status: 200, body: body.to_string(), delay: Duration::ZERO, headers: vec![] }
    }
    pub fn status(status: u16, body: &str) -> Answer {
        Answer { status, body: body.to_string(), delay: Duration::ZERO, headers: vec![] }
    }
}

type Script = dyn Fn(usize, &Seen) -> Answer + Send + Sync;

pub struct Server {
    pub port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Server {
    /// Serves on 127.0.0.1 until the test ends; `script(n, request)` decides
    /// the answer to the n-th request (from 0).
    pub fn start(script: impl Fn(usize, &Seen) -> Answer + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let script: Arc<Script> = Arc::new(script);
        let log = Arc::clone(&seen);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (log, script) = (Arc::clone(&log), Arc::clone(&script));
                std::thread::spawn(move || serve(stream, &log, &*script));
            }
        });
        Server { port, seen }
    }

    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

fn serve(stream: TcpStream, log: &Mutex<Vec<Seen>>, script: &Script) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).unwrap();
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            headers.push((name.trim().to_lowercase(), value.trim().to_string()));
        }
    }
    let length: usize =
        headers.iter().find(|(n, _)| n == "content-length").and_then(|(_, v)| v.parse().ok()).unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    let seen = Seen { path, headers, body: String::from_utf8(body).unwrap() };
    let n = {
        let mut log = log.lock().unwrap();
        log.push(seen.clone());
        log.len() - 1
    };
    let answer = script(n, &seen);
    std::thread::sleep(answer.delay);
    let mut stream = stream;
    let extra: String = answer.headers.iter().map(|(n, v)| format!("{n}: {v}\r\n")).collect();
    let head = format!(
        "HTTP/1.1 {} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n{extra}\r\n",
        answer.status,
        answer.body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(answer.body.as_bytes());
}
