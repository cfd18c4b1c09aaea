//! The files that make the page an installable web app that plays offline: the manifest and
//! its icons, the service worker (its list of files and its version), and the in-browser
//! engine's files with their validators, through the router in memory.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use http_body_util::BodyExt;
use tower::ServiceExt;

fn router(wasm: Option<&std::path::Path>) -> axum::Router {
    let mut config = damka_web::Config::new(1, 1);
    config.wasm = wasm.map(|p| p.to_path_buf());
    damka_web::serve(&config).unwrap().1
}

/// Status, content type, ETag and body of GET `uri` (with `If-None-Match: tag`).
async fn get(
    app: &axum::Router,
    uri: &str,
    tag: Option<&str>,
) -> (StatusCode, String, String, Vec<u8>) {
    let mut req = Request::get(uri);
    if let Some(tag) = tag {
        req = req.header(header::IF_NONE_MATCH, tag);
    }
    let res = app
        .clone()
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let text = |name| {
        res.headers()
            .get(name)
            .map_or(String::new(), |v| v.to_str().unwrap().to_string())
    };
    let (kind, etag) = (text(header::CONTENT_TYPE), text(header::ETAG));
    let status = res.status();
    let body = res.into_body().collect().await.unwrap().to_bytes().to_vec();
    (status, kind, etag, body)
}

/// The `BUILD` line of the served sw.js: its version and files.
async fn sw_build(app: &axum::Router) -> (String, Vec<String>) {
    let (status, kind, _, body) = get(app, "/sw.js", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kind, "text/javascript; charset=utf-8");
    let text = String::from_utf8(body).unwrap();
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("const BUILD = "))
        .expect("the BUILD line");
    let json = line.split(';').next().unwrap();
    let build: serde_json::Value = serde_json::from_str(json).unwrap();
    let files = build["files"].as_array().unwrap();
    let files = files.iter().map(|f| f.as_str().unwrap().to_string());
    (
        build["version"].as_str().unwrap().to_string(),
        files.collect(),
    )
}

#[tokio::test]
async fn manifest_and_icons() {
    let app = router(None);
    let (status, kind, _, body) = get(&app, "/assets/manifest.webmanifest", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kind, "application/manifest+json");
    let m: serde_json::Value = serde_json::from_slice(&body).unwrap();
    for field in [
        "name",
        "short_name",
        "start_url",
        "theme_color",
        "background_color",
    ] {
        assert!(m[field].as_str().is_some_and(|s| !s.is_empty()), "{field}");
    }
    assert_eq!(m["display"], "standalone");
    let mut sizes = Vec::new();
    for icon in m["icons"].as_array().unwrap() {
        let src = icon["src"].as_str().unwrap();
        let (status, kind, _, png) = get(&app, &format!("/assets/{src}"), None).await;
        assert_eq!(
            (status, kind.as_str()),
            (StatusCode::OK, "image/png"),
            "{src}"
        );
        // The PNG's own width and height (its IHDR chunk) are the sizes the manifest says.
        assert_eq!(&png[12..16], b"IHDR");
        let (w, h) = (&png[16..20], &png[20..24]);
        let (w, h) = (
            u32::from_be_bytes(w.try_into().unwrap()),
            u32::from_be_bytes(h.try_into().unwrap()),
        );
        assert_eq!(icon["sizes"], format!("{w}x{h}"));
        sizes.push(w);
    }
    assert_eq!(sizes, [192, 512]);
    let (_, _, _, page) = get(&app, "/", None).await;
    let page = String::from_utf8(page).unwrap();
    assert!(page.contains(r#"<link rel="manifest" href="/assets/manifest.webmanifest">"#));
    assert!(page.contains(
        r##"name="theme-color" content="#17181b" media="(prefers-color-scheme: dark)""##
    ));
}

#[tokio::test]
async fn service_worker_lists_what_is_served() {
    // Without the in-browser engine: the page's files only, every one of them served.
    let app = router(None);
    let (version, files) = sw_build(&app).await;
    assert_eq!(version.len(), 16, "{version}");
    assert!(files.contains(&"./".to_string()) && files.contains(&"assets/offline.js".to_string()));
    assert!(!files
        .iter()
        .any(|f| f.contains("wasm") || f.contains("lobby") || f.contains("api")));
    for f in &files {
        let (status, ..) = get(&app, &format!("/{}", f.trim_start_matches("./")), None).await;
        assert_eq!(status, StatusCode::OK, "{f}");
    }
    // With it: the engine's files present are listed too, and another file makes another
    // version.
    let dir = std::env::temp_dir().join(format!("damka-web-offline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("damka-worker.js"), "// worker").unwrap();
    std::fs::write(dir.join("damka.wasm"), b"\0asm one").unwrap();
    let (with, files_with) = sw_build(&router(Some(&dir))).await;
    assert_ne!(with, version);
    assert_eq!(files_with.len(), files.len() + 2);
    assert!(files_with.ends_with(&["damka-worker.js".to_string(), "damka.wasm".to_string()]));
    std::fs::write(dir.join("damka.wasm"), b"\0asm two").unwrap();
    let (changed, _) = sw_build(&router(Some(&dir))).await;
    assert_ne!(changed, with, "a new engine makes a new version");
    let (again, _) = sw_build(&router(Some(&dir))).await;
    assert_eq!(again, changed, "the same files, the same version");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn engine_files_have_validators() {
    let dir = std::env::temp_dir().join(format!("damka-web-etag-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("damka.wasm"), b"\0asm bytes").unwrap();
    let app = router(Some(&dir));
    let (status, kind, tag, body) = get(&app, "/damka.wasm", None).await;
    assert_eq!(
        (status, kind.as_str()),
        (StatusCode::OK, "application/wasm")
    );
    assert_eq!(body, b"\0asm bytes");
    assert!(tag.starts_with('"') && tag.len() > 10, "{tag}");
    let (status, _, again, body) = get(&app, "/damka.wasm", Some(&tag)).await;
    assert_eq!(
        (status, again.as_str(), body.len()),
        (StatusCode::NOT_MODIFIED, tag.as_str(), 0)
    );
    let (status, ..) = get(&app, "/damka.wasm", Some("\"other\"")).await;
    assert_eq!(status, StatusCode::OK);
    // The page's own files too; a file not served is a 404.
    let (_, _, tag, _) = get(&app, "/assets/app.js", None).await;
    let (status, ..) = get(&app, "/assets/app.js", Some(&tag)).await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    let (status, ..) = get(&app, "/damka-simd.wasm", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    std::fs::remove_dir_all(&dir).unwrap();
}
