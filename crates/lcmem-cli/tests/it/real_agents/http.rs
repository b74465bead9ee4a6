//! The little HTTP the scripted model endpoints speak: one request read
//! whole (its method, path and JSON body), one reply written and closed.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde_json::Value;

/// One request: whether it is a POST, its path without the query, its body.
pub struct Request {
    pub post: bool,
    pub path: String,
    pub body: Value,
}

pub fn read(stream: &TcpStream) -> std::io::Result<Request> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut length = 0usize;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header == "\r\n" {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let path = request_line.split_whitespace().nth(1).unwrap_or("").split('?').next().unwrap_or("").to_string();
    Ok(Request { post: request_line.starts_with("POST"), path, body })
}

/// Writes a whole reply of `kind` and closes the connection.
pub fn reply(out: &mut TcpStream, kind: &str, body: &str) -> std::io::Result<()> {
    write!(
        out,
        "HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    out.flush()
}

/// Serves on a port of its own on 127.0.0.1, each connection on a thread of
/// its own, with `serve` (given the requests kept so far and the project);
/// returns the endpoint's URL and the kept requests.
pub fn listen(
    project: PathBuf,
    serve: fn(TcpStream, &Mutex<Vec<Value>>, &Path) -> std::io::Result<()>,
) -> (String, Arc<Mutex<Vec<Value>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let requests = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&requests);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let (kept, project) = (Arc::clone(&kept), project.clone());
            std::thread::spawn(move || {
                let _ = serve(stream, &kept, &project);
            });
        }
    });
    (url, requests)
}
