//! A pump's steps as the session sees them: how many the pump planned,
//! which one is running, the frames owed to skip on a wait
//! recommendation, and the frame whose local input ggrs took and that
//! waits.

use ggrs::Frame;

/// The pump in progress.
#[derive(Debug)]
pub(crate) struct PumpSteps<I> {
    /// Steps the pump planned.
    planned: u64,
    /// Steps of the pump begun, the running one included.
    begun: u64,
    /// Steps still to skip, owed to wait recommendations.
    skips_owed: u64,
    /// The frame that waits and the local input ggrs took for it: ggrs
    /// keeps the first input of a frame, so its retries send the same.
    waiting: Option<(Frame, Vec<I>)>,
}

impl<I> Default for PumpSteps<I> {
    fn default() -> PumpSteps<I> {
        PumpSteps {
            planned: 0,
            begun: 0,
            skips_owed: 0,
            waiting: None,
        }
    }
}

impl<I> PumpSteps<I> {
    /// A pump planning `planned` steps begins.
    pub(crate) fn begin(&mut self, planned: u64) {
        self.planned = planned;
        self.begun = 0;
    }

    /// `count` more steps are owed to skip.
    pub(crate) fn owe_skips(&mut self, count: u64) {
        self.skips_owed = self.skips_owed.saturating_add(count);
    }

    /// A step begins. If it is to be skipped with the rest of the pump,
    /// the number of steps skipped: a pump owing `k` of its `n` steps runs
    /// the first `n − k` and skips the last `k`, so exactly the steps owed
    /// are skipped, across pumps if need be.
    pub(crate) fn next_step_skips(&mut self) -> Option<u64> {
        let index = self.begun;
        self.step_begins();
        if self.skips_owed == 0 || index < self.planned.saturating_sub(self.skips_owed) {
            return None;
        }
        let skipped = self.planned.saturating_sub(index).max(1);
        self.skips_owed = self.skips_owed.saturating_sub(skipped);
        Some(skipped)
    }

    /// A step begins, counted for [`rest`](PumpSteps::rest).
    pub(crate) fn step_begins(&mut self) {
        self.begun += 1;
    }

    /// The running step and those after it in the pump.
    pub(crate) fn rest(&self) -> u64 {
        self.planned
            .saturating_sub(self.begun.saturating_sub(1))
            .max(1)
    }

    /// The frame that waits and the input ggrs took for it, if one waits.
    pub(crate) fn waiting(&self) -> Option<(Frame, Vec<I>)>
    where
        I: Clone,
    {
        self.waiting.clone()
    }

    /// `frame` waits, ggrs holding `inputs` for it.
    pub(crate) fn waits(&mut self, frame: Frame, inputs: Vec<I>) {
        self.waiting = Some((frame, inputs));
    }

    /// The frame that waited ran.
    pub(crate) fn advanced(&mut self) {
        self.waiting = None;
    }
}

#[cfg(test)]
mod tests {
    use super::PumpSteps;

    /// Runs a pump of `planned` steps; returns the steps run before a skip
    /// and the steps the skip gave back.
    fn pump(steps: &mut PumpSteps<u8>, planned: u64) -> (u64, u64) {
        steps.begin(planned);
        for ran in 0..planned {
            if let Some(skipped) = steps.next_step_skips() {
                return (ran, skipped);
            }
        }
        (planned, 0)
    }

    #[test]
    fn a_pump_owing_fewer_skips_than_steps_runs_the_first_and_skips_the_last() {
        let mut steps = PumpSteps::default();
        steps.owe_skips(2);
        assert_eq!(pump(&mut steps, 5), (3, 2));
        assert_eq!(pump(&mut steps, 5), (5, 0));
    }

    #[test]
    fn skips_owed_beyond_a_pump_carry_to_the_next_pumps() {
        let mut steps = PumpSteps::default();
        steps.owe_skips(4);
        assert_eq!(pump(&mut steps, 1), (0, 1));
        assert_eq!(pump(&mut steps, 2), (0, 2));
        assert_eq!(pump(&mut steps, 3), (2, 1));
        assert_eq!(pump(&mut steps, 3), (3, 0));
    }

    #[test]
    fn a_waiting_frame_keeps_its_input_until_it_runs() {
        let mut steps = PumpSteps::default();
        assert_eq!(steps.waiting(), None);
        steps.waits(7, vec![3]);
        assert_eq!(steps.waiting(), Some((7, vec![3])));
        steps.begin(2);
        assert_eq!(steps.waiting(), Some((7, vec![3])), "across pumps");
        steps.advanced();
        assert_eq!(steps.waiting(), None);
    }
}
