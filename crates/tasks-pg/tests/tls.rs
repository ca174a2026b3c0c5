//! TLS to the team store: `sslmode=require` connects encrypted and verifies the server
//! against `sslrootcert` (a CA made here with openssl); a server signed by another CA is
//! refused, never connected to unverified. A throwaway cluster of its own (TLS is
//! switched on cluster-wide with `ALTER SYSTEM`); skipped, with a logged reason, where
//! PostgreSQL or openssl cannot be had.

use std::path::Path;
use std::process::Command;

use tasks_core::Error;
use tasks_pg::PgStore;
use tasks_testkit::pg::TestPostgres;
use tasks_testkit::skip::skipped;

fn openssl(dir: &Path, args: &[&str]) -> bool {
    Command::new("openssl").args(args).current_dir(dir).output().is_ok_and(|o| o.status.success())
}

/// Runs openssl with one command line written as words.
fn openssl_line(dir: &Path, line: &str) -> bool {
    openssl(dir, &line.split(' ').collect::<Vec<_>>())
}

/// Makes a CA (`ca.pem`), another CA (`other.pem`) and a server certificate for
/// 127.0.0.1 signed by the first; false without openssl.
fn make_certificates(dir: &Path) -> bool {
    std::fs::write(dir.join("san.ext"), "subjectAltName=IP:127.0.0.1\n").expect("ext file");
    // Subjects are passed apart: they hold spaces.
    let ca = |name: &str, subject: &str| {
        openssl(
            dir,
            &[
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                &format!("{name}.key"),
                "-out",
                &format!("{name}.pem"),
                "-days",
                "2",
                "-subj",
                subject,
            ],
        )
    };
    ca("ca", "/CN=tasks test CA")
        && ca("other", "/CN=another CA")
        && openssl_line(dir, "req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj /CN=127.0.0.1")
        && openssl_line(
            dir,
            "x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 -extfile san.ext",
        )
}

fn running_as_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("Uid:")).map(|l| l.split_whitespace().nth(1) == Some("0")))
        .unwrap_or(false)
}

#[test]
fn sslmode_require_connects_encrypted_and_verifies_the_server() {
    let Some(server) = TestPostgres::start("pg_tls") else { return };
    let temp = tempfile::Builder::new().prefix("tasks-pg-tls-").tempdir().expect("cert dir");
    let dir = temp.path().to_path_buf();
    if !make_certificates(&dir) {
        skipped("pg_tls", "openssl is not installed (scripts/install-test-tools.sh installs it)");
        return;
    }
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).expect("chmod dir");
    std::fs::set_permissions(dir.join("server.pem"), std::fs::Permissions::from_mode(0o644)).expect("chmod cert");
    std::fs::set_permissions(dir.join("server.key"), std::fs::Permissions::from_mode(0o600)).expect("chmod key");
    if running_as_root() {
        // The server runs as the postgres user and must own its key.
        let ok = Command::new("chown").args(["postgres", dir.join("server.key").to_str().expect("path")]).status();
        assert!(ok.is_ok_and(|s| s.success()), "chown the server key");
    }
    let url = server.create_database("tls_check");
    let mut admin = postgres::Client::connect(&url, postgres::NoTls).expect("plain connection to set TLS up");
    for (name, file) in [("ssl_cert_file", "server.pem"), ("ssl_key_file", "server.key")] {
        let path = dir.join(file).to_string_lossy().replace('\'', "''");
        admin.batch_execute(&format!("ALTER SYSTEM SET {name} = '{path}'")).expect("set the file");
    }
    admin.batch_execute("ALTER SYSTEM SET ssl = on").expect("ssl on");
    admin.batch_execute("SELECT pg_reload_conf()").expect("reload");
    drop(admin);

    let ca = dir.join("ca.pem");
    let verified = format!("{url}?sslmode=require&sslrootcert={}", ca.display());
    // pg_reload_conf only signals the server: give it a moment to load the certificate.
    let mut store = (0..50)
        .find_map(|_| match PgStore::connect(&verified) {
            Ok(store) => Some(store),
            Err(_) => {
                std::thread::sleep(std::time::Duration::from_millis(100));
                None
            }
        })
        .unwrap_or_else(|| PgStore::connect(&verified).expect("TLS with our CA"));
    assert!(store.uses_tls().expect("pg_stat_ssl"), "the connection is encrypted");
    let mut plain = PgStore::connect(&url).expect("sslmode prefer (the default) connects without TLS");
    assert!(!plain.uses_tls().expect("pg_stat_ssl"), "prefer does not encrypt: a team across machines sets require");

    let other = format!("{url}?sslmode=require&sslrootcert={}", dir.join("other.pem").display());
    match PgStore::connect(&other) {
        Err(Error::StoreOpen { reason, path }) => {
            assert!(reason.to_lowercase().contains("certificate") || reason.contains("UnknownIssuer"), "{reason}");
            assert!(!path.contains("sslrootcert"), "the target shown is the store, not its query: {path}");
        }
        other => panic!("a server signed by another CA must be refused, got {other:?}"),
    }
    let missing = format!("{url}?sslmode=require&sslrootcert={}", dir.join("nope.pem").display());
    match PgStore::connect(&missing) {
        Err(Error::StoreOpen { reason, .. }) => assert!(reason.contains("sslrootcert"), "{reason}"),
        other => panic!("a missing CA file must be an error naming sslrootcert, got {other:?}"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}
