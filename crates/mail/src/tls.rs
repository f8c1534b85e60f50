//! What IMAP and SMTP share about TLS: the roots a server certificate is checked against
//! (the webpki roots, plus the certificates of an optional PEM CA file, for a private CA
//! or a self-signed server), and telling a certificate failure from other TLS trouble.

use std::error::Error as StdError;
use std::path::Path;

use tokio_rustls::rustls;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::CertificateDer;

const NO_CERTIFICATE: &str = "no certificate in it (expected PEM \"-----BEGIN CERTIFICATE-----\" \
     blocks; a DER file converts with `openssl x509 -inform der -in FILE -out FILE.pem`)";

/// Reads every certificate of the PEM file `path` (the `-----BEGIN CERTIFICATE-----`
/// blocks; anything else in the file is ignored) and checks each can serve as a trust
/// anchor. The error says what is wrong without the file name: callers name the file.
pub(crate) fn load_ca_file(path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read it: {e}"))?;
    let certs = CertificateDer::pem_slice_iter(&bytes)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("not a valid PEM file: {e}"))?;
    if certs.is_empty() {
        return Err(NO_CERTIFICATE.into());
    }
    let mut store = rustls::RootCertStore::empty();
    for (i, cert) in certs.iter().enumerate() {
        store.add(cert.clone()).map_err(|e| {
            format!(
                "certificate {} of {} is not usable: {e}",
                i + 1,
                certs.len()
            )
        })?;
    }
    Ok(certs)
}

/// Checks that `path` is a usable CA file (see [`crate::ImapTls`] and
/// [`crate::Transport::Smtp`]), so a program can refuse a bad one at start-up rather than
/// at its first connection. Returns how many certificates it holds; the error names the file.
pub fn check_ca_file(path: &Path) -> Result<usize, String> {
    load_ca_file(path)
        .map(|certs| certs.len())
        .map_err(|e| ca_file_error(path, &e))
}

/// "CA file PATH: WHY", the one wording of every CA file error.
pub(crate) fn ca_file_error(path: &Path, why: &str) -> String {
    format!("CA file {}: {why}", path.display())
}

/// The webpki roots plus the certificates of `ca_file`, if any.
pub(crate) fn root_store(ca_file: Option<&Path>) -> Result<rustls::RootCertStore, String> {
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    if let Some(path) = ca_file {
        for cert in load_ca_file(path).map_err(|e| ca_file_error(path, &e))? {
            roots
                .add(cert)
                .map_err(|e| ca_file_error(path, &e.to_string()))?;
        }
    }
    Ok(roots)
}

/// If `err` (or anything in its chain of causes) is rustls refusing the server's
/// certificate, that refusal in words ("invalid peer certificate: UnknownIssuer").
pub(crate) fn certificate_error(err: &(dyn StdError + 'static)) -> Option<String> {
    let mut next = Some(err);
    while let Some(e) = next {
        if let Some(tls) = e.downcast_ref::<rustls::Error>() {
            let rustls::Error::InvalidCertificate(why) = tls else {
                return None;
            };
            let mut text = tls.to_string();
            if format!("{why:?}").contains("CaUsedAsEndEntity") {
                text.push_str(
                    "; the server shows a certificate marked as a CA (CA:TRUE, as \
                     `openssl req -x509` makes by default): a self-signed server certificate \
                     must say CA:FALSE, or be signed by a CA of its own",
                );
            }
            return Some(text);
        }
        // io::Error::source() skips the error it wraps: look at that one first
        next = match e
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
        {
            Some(inner) => Some(inner as &(dyn StdError + 'static)),
            None => e.source(),
        };
    }
    None
}

/// What a certificate refusal means, and the advice that goes with it: "{CERTIFICATE_REFUSED}
/// (WHY); {CERTIFICATE_HINT}".
pub(crate) const CERTIFICATE_REFUSED: &str = "the server's certificate is not trusted";
pub(crate) const CERTIFICATE_HINT: &str = "if it comes from a private CA or is self-signed, \
     trust that CA with a CA file (ca_file)";

#[cfg(test)]
mod tests {
    use super::*;

    // A throwaway self-signed CA certificate (EC P-256, its key thrown away), only parsed here.
    const CA_PEM: &str = "-----BEGIN CERTIFICATE-----
MIIBqTCCAU+gAwIBAgIUYeuT0rBpdUxceNa1sLQt+s+u7GwwCgYIKoZIzj0EAwIw
ITEfMB0GA1UEAwwWY2FzdGVsbGFuIHVuaXQtdGVzdCBDQTAgFw0yNjExMjMxMDI5
MDlaGA8yMTI2MTAzMDEwMjkwOVowITEfMB0GA1UEAwwWY2FzdGVsbGFuIHVuaXQt
dGVzdCBDQTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABL6Ti4RiymxvNvNbZlP+
slX42MPWwiKXTv+R68UQJRILgfRu8AY8uvK6jzoH0bRdbdVDX0fGc4c0uhQrklxh
ex6jYzBhMB0GA1UdDgQWBBQRSukDM7o8ixSnkGzFBAm2ljYSODAfBgNVHSMEGDAW
gBQRSukDM7o8ixSnkGzFBAm2ljYSODAPBgNVHRMBAf8EBTADAQH/MA4GA1UdDwEB
/wQEAwIBBjAKBggqhkjOPQQDAgNIADBFAiA2wmsSGjITj7dT6WupHkEHGDqmU2Ka
dkKvPOzUo5c/FgIhAJeBTdrSqNo5ulAHf/YNKz8MARJok3cDxM53KWZmBr5+
-----END CERTIFICATE-----
";

    fn file(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn a_missing_file_is_named() {
        let e = check_ca_file(Path::new("/nonexistent/ca.pem")).unwrap_err();
        assert!(
            e.starts_with("CA file /nonexistent/ca.pem: cannot read it"),
            "{e}"
        );
        let e = root_store(Some(Path::new("/nonexistent/ca.pem"))).unwrap_err();
        assert!(e.contains("/nonexistent/ca.pem"), "{e}");
    }

    #[test]
    fn a_file_without_certificates_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in [
            ("empty.pem", ""),
            ("text.pem", "hello\n"),
            (
                "key.pem",
                "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
            ),
        ] {
            let p = file(dir.path(), name, text);
            let e = check_ca_file(&p).unwrap_err();
            assert!(
                e.contains(name) && e.contains("no certificate"),
                "{name}: {e}"
            );
        }
    }

    #[test]
    fn broken_pem_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = file(
            dir.path(),
            "cut.pem",
            "-----BEGIN CERTIFICATE-----\nMIIBfjCC\n",
        );
        let e = check_ca_file(&p).unwrap_err();
        assert!(
            e.contains("cut.pem") && e.contains("not a valid PEM"),
            "{e}"
        );
        let p = file(
            dir.path(),
            "junk.pem",
            "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n",
        );
        let e = check_ca_file(&p).unwrap_err();
        assert!(
            e.contains("junk.pem") && e.contains("certificate 1 of 1 is not usable"),
            "{e}"
        );
    }

    #[test]
    fn the_webpki_roots_stay_and_the_file_adds_to_them() {
        let webpki = root_store(None).unwrap().len();
        assert!(webpki > 50, "{webpki}");
        let dir = tempfile::tempdir().unwrap();
        // two certificates with text around them, as in a bundle
        let p = file(
            dir.path(),
            "bundle.pem",
            &format!("# my CA\n{CA_PEM}\nsubject=...\n{CA_PEM}"),
        );
        assert_eq!(check_ca_file(&p), Ok(2));
        assert_eq!(root_store(Some(&p)).unwrap().len(), webpki + 2);
    }

    #[test]
    fn certificate_errors_are_found_through_io_errors() {
        let tls = rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer);
        let io = std::io::Error::new(std::io::ErrorKind::InvalidData, tls);
        assert_eq!(
            certificate_error(&io).as_deref(),
            Some("invalid peer certificate: UnknownIssuer")
        );
        let other = std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            rustls::Error::HandshakeNotComplete,
        );
        assert_eq!(certificate_error(&other), None);
        let refused = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        assert_eq!(certificate_error(&refused), None);
    }

    #[test]
    fn a_self_signed_ca_as_server_certificate_is_explained() {
        // what webpki says when a server shows a CA:TRUE certificate (stood in for here)
        #[derive(Debug)]
        struct CaUsedAsEndEntity;
        impl std::fmt::Display for CaUsedAsEndEntity {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("CaUsedAsEndEntity")
            }
        }
        impl StdError for CaUsedAsEndEntity {}
        let tls = rustls::Error::InvalidCertificate(rustls::CertificateError::Other(
            rustls::OtherError(std::sync::Arc::new(CaUsedAsEndEntity)),
        ));
        let io = std::io::Error::new(std::io::ErrorKind::InvalidData, tls);
        let text = certificate_error(&io).unwrap();
        assert!(text.contains("CA:FALSE"), "{text}");
    }
}
