//! The body of the test server's responses.

use std::convert::Infallible;

use bytes::Bytes;
use http_body_util::combinators::UnsyncBoxBody;

/// Response body of the test server.
pub type Body = UnsyncBoxBody<Bytes, Infallible>;
