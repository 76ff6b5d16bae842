//! The operator library: the mechanics of a reconcile that owns children, so that a
//! controller's file holds only its own logic (what the children are, what the status says).
//! Each item names its controller-runtime counterpart.
//!
//! | here | controller-runtime |
//! |---|---|
//! | [`Children::apply`] | `controllerutil.SetControllerReference` + `client.Patch(obj, client.Apply, client.FieldOwner, client.ForceOwnership)`, with `CreateOrPatch`'s `OperationResult` ([`Change`]) |
//! | [`controller_reference`] | `controllerutil.SetControllerReference` (`controller: true`, `blockOwnerDeletion: true`) |
//! | [`Drift`] | (none: controller-runtime applies or updates every time) |
//! | [`write_status`] | `client.Status().Patch(obj, client.Apply, ...)` after comparing with the current status |
//! | [`set_condition`], [`find_condition`] | `meta.SetStatusCondition`, `meta.FindStatusCondition` |
//! | [`Rollout`] | kstatus `status.Compute` for a Deployment |
//! | [`publish`] | `record.EventRecorder.Eventf` |
//! | [`one_line`] | `err.Error()` of an `apierrors.StatusError` |
//!
//! The children converge exactly: a child ends with exactly the fields its owner applies. Why
//! and at what cost is in `drift` (and `docs/operator-library.md`): an unchanged child costs no
//! request, as its cached copy, with its field manager's apply entry, is compared with the
//! desired object; a drifted one costs one forced apply, and, when someone else added items to a
//! list the owner fills, two more writes (the list replaced by a guarded merge patch, and the
//! ownership that patch left dropped).

mod children;
mod drift;
mod events;
mod rollout;
mod status;

#[cfg(debug_assertions)]
pub(crate) use children::Controller;
pub use children::{Applied, ApplyError, Change, Children, controller_reference};
pub use drift::Drift;
pub use events::{one_line, publish};
pub use rollout::{Rollout, RolloutState};
pub use status::{condition, find_condition, set_condition, write_status};
