//! A local game's review, kept in its row of `games`: the page's review view as JSON.

use super::{Db, Value};

impl Db {
    /// Keeps `review` (JSON) with local game `id`; false when no such game is saved.
    pub fn save_review(&self, id: &str, review: &str) -> Result<bool, String> {
        let stmts = [super::Stmt::guard(
            // Parameters in order of appearance: SQLite numbers `$N` by where each first
            // appears, not by N.
            "UPDATE games SET review = $1 WHERE id = $2",
            vec![Value::Text(review.into()), Value::Text(id.into())],
        )];
        self.backend.transaction(&stmts)
    }

    /// The review kept with local game `id`, if any.
    pub fn load_review(&self, id: &str) -> Result<Option<String>, String> {
        let rows = self.backend.query(
            "SELECT review FROM games WHERE id = $1",
            &[Value::Text(id.into())],
        )?;
        Ok(rows
            .into_iter()
            .next()
            .and_then(|r| r.into_iter().next())
            .and_then(|v| v.text_value()))
    }
}
