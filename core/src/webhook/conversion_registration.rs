//! [`Conversion`]: the builder of one kind's conversion webhook (`Webhooks::conversion`, then
//! each spoke, then `done`).

use std::marker::PhantomData;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::conversion::{Convertible, Hub};
use super::convert::KindConversion;
use super::webhooks::Webhooks;

// The builder's entry lives here, beside the builder, so that `Webhooks` needs to know nothing
// of it: the two modules depend one way.
impl Webhooks {
    /// Conversion between the versions of the hub `H`'s kind, served at `/convert`; add the
    /// spokes, then [`Conversion::done`].
    pub fn conversion<H>(self) -> Conversion<H>
    where
        H: Hub + Serialize + DeserializeOwned + 'static,
    {
        Conversion::new(KindConversion::hub::<H>(), self)
    }
}

/// The versions of one kind being registered for conversion: the hub `H` and its spokes.
#[must_use = "finish the conversion with .done()"]
pub struct Conversion<H> {
    kind: KindConversion,
    webhooks: Webhooks,
    hub: PhantomData<fn() -> H>,
}

impl<H> Conversion<H>
where
    H: Hub + Serialize + DeserializeOwned + 'static,
{
    fn new(kind: KindConversion, webhooks: Webhooks) -> Self {
        Conversion {
            kind,
            webhooks,
            hub: PhantomData,
        }
    }

    /// Adds the spoke `S`, which converts to and from `H`. Panics if `S` is not a version of
    /// `H`'s kind or is added twice.
    pub fn spoke<S>(mut self) -> Self
    where
        S: Convertible<H>
            + kube_core::Resource<DynamicType = ()>
            + Serialize
            + DeserializeOwned
            + 'static,
    {
        if let Err(problem) = self.kind.spoke::<H, S>() {
            panic!("{problem}");
        }
        self
    }

    /// The webhooks, now converting this kind.
    pub fn done(mut self) -> Webhooks {
        let kind = self.kind;
        if self
            .webhooks
            .conversions
            .iter()
            .any(|c| c.group == kind.group && c.kind == kind.kind)
        {
            panic!(
                "{}.{} has two conversions: register its hub once",
                kind.kind, kind.group
            );
        }
        self.webhooks.conversions.push(kind);
        self.webhooks
    }
}
