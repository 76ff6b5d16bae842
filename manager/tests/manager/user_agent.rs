//! Every request of the manager's clients (the controllers' and its own, which leader election
//! uses) carries the manager's User-Agent, shaped as client-go's.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use webop_manager::{Manager, Options, user_agent};

/// A server that answers every request 500 and reports its path and User-Agent.
async fn recording_server() -> (String, mpsc::UnboundedReceiver<(String, Option<String>)>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (sender, received) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let sender = sender.clone();
            tokio::spawn(async move {
                let mut head = Vec::new();
                let mut byte = [0];
                while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).await.unwrap_or(0) == 1
                {
                    head.push(byte[0]);
                }
                let head = String::from_utf8_lossy(&head).into_owned();
                let path = head.split(' ').nth(1).unwrap_or_default().to_owned();
                let agent = head.lines().find_map(|line| {
                    let (name, value) = line.split_once(':')?;
                    name.eq_ignore_ascii_case("user-agent")
                        .then(|| value.trim().to_owned())
                });
                let _ = sender.send((path, agent));
                let answer = "HTTP/1.1 500 Internal Server Error\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";
                let _ = stream.write_all(answer.as_bytes()).await;
            });
        }
    });
    (url, received)
}

#[tokio::test]
async fn the_controllers_and_the_leader_election_send_the_managers_user_agent() {
    let (url, mut received) = recording_server().await;
    let config = kube::Config::new(url.parse().unwrap());
    let options = Options {
        leader_elect: true,
        leader_election_namespace: Some("default".to_owned()),
        ..Options::default()
    };
    let manager = Manager::from_config(config, options, "user-agent-test").unwrap();
    let expected = user_agent();
    assert!(
        expected.contains(&format!(" webop/v{}", env!("CARGO_PKG_VERSION"))),
        "{expected}"
    );

    let _ = manager.client().apiserver_version().await;
    let (path, agent) = received.recv().await.unwrap();
    assert_eq!(path, "/version");
    assert_eq!(agent.as_deref(), Some(expected.as_str()));

    let run = tokio::spawn(manager.clone().run(|_| async {}));
    let lease = loop {
        let (path, agent) = tokio::time::timeout(Duration::from_secs(20), received.recv())
            .await
            .expect("leader election asks for the Lease")
            .unwrap();
        if path.contains("/leases/") {
            break agent;
        }
    };
    assert_eq!(lease.as_deref(), Some(expected.as_str()));
    manager.shutdown();
    let _ = run.await;
}
