//! The file form of a frame log's inputs, with the `serde` feature: a
//! [`FrameLog`](crate::FrameLog) is an evenstep input log, which
//! serializes with evenstep's `serde`, and each frame's inputs serialize
//! as a list of `[input, status]` pairs. ggrs's [`InputStatus`] has no
//! serde of its own, so it goes through a mirror enum of the same names
//! (`"Confirmed"`, `"Predicted"`, `"Disconnected"`).

use ggrs::InputStatus;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::forensics::FrameInputs;

/// [`InputStatus`], variant for variant, as serde writes and reads it.
#[derive(Clone, Copy, Serialize, Deserialize)]
enum Status {
    Confirmed,
    Predicted,
    Disconnected,
}

impl From<InputStatus> for Status {
    fn from(status: InputStatus) -> Status {
        match status {
            InputStatus::Confirmed => Status::Confirmed,
            InputStatus::Predicted => Status::Predicted,
            InputStatus::Disconnected => Status::Disconnected,
        }
    }
}

impl From<Status> for InputStatus {
    fn from(status: Status) -> InputStatus {
        match status {
            Status::Confirmed => InputStatus::Confirmed,
            Status::Predicted => InputStatus::Predicted,
            Status::Disconnected => InputStatus::Disconnected,
        }
    }
}

impl<I: Serialize> Serialize for FrameInputs<I> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(
            self.0
                .iter()
                .map(|(input, status)| (input, Status::from(*status))),
        )
    }
}

impl<'de, I: Deserialize<'de>> Deserialize<'de> for FrameInputs<I> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<FrameInputs<I>, D::Error> {
        let inputs = Vec::<(I, Status)>::deserialize(deserializer)?;
        Ok(FrameInputs(
            inputs
                .into_iter()
                .map(|(input, status)| (input, status.into()))
                .collect(),
        ))
    }
}
