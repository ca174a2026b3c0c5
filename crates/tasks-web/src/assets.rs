//! The page's script and styles, embedded in the binary (no build step, nothing to
//! install beside `tasks`).

/// Returns an asset's content type and body.
pub fn get(name: &str) -> Option<(&'static str, &'static str)> {
    match name {
        "app.js" => Some(("text/javascript; charset=utf-8", include_str!("../assets/app.js"))),
        "app.css" => Some(("text/css; charset=utf-8", include_str!("../assets/app.css"))),
        _ => None,
    }
}
