//! A ggrs spectator session on an evenstep [`Loop`]: [`Spectator`] is the
//! loop's state, owning the game and the session, and
//! [`Spectator::attach`] registers what runs it. A spectator sends no
//! input: its host (a peer that registered it as
//! `PlayerType::Spectator`) sends it every player's confirmed input, and
//! it runs those frames. It never rolls back.
//!
//! Each pump, the before-steps hook polls the session and drains its
//! events. Each planned step advances the session once:
//!
//! - **One frame per step, while in step with the host.** A spectator no
//!   more than `max_frames_behind` frames (ggrs's setting, default 10)
//!   behind the host's confirmed input runs one frame per step.
//! - **Several frames in one step, when behind.** Further behind, ggrs
//!   hands one advance up to `catchup_speed` frames (its setting, default
//!   1: never), and the step runs them all, one after the other, with the
//!   fixed step as each one's `dt`: the frames beyond the first take no
//!   time of their own. So a spectator that fell behind catches up by
//!   running more frames than steps, and its frames run ahead of its
//!   loop's ticks by exactly [`catch_up_frames`](SpectatorStats::catch_up_frames):
//!   `frames = steps + catch_up_frames`. Its time is still the loop's:
//!   a pump after a stall runs at most the step budget's steps, the rest
//!   dropped and reported as for any loop.
//! - **A step with no input to run gives its time back.** While the
//!   session synchronizes, or the host's input for the next frame has not
//!   arrived, the step and the rest of its pump go back to the loop's
//!   bank (bounded by the step budget), as a P2P session's waits do.
//! - **Too far behind is the end.** ggrs keeps the host's input for 60
//!   frames; a spectator further behind has lost inputs for good: the loop
//!   is stopped and [`last_error`](Spectator::last_error) says why.

use std::collections::VecDeque;
use std::net::SocketAddr;

use evenstep::{FramePlan, Loop, StepContext, Timestep};
use ggrs::{Frame, GgrsError, GgrsEvent, PredictRepeatLast, SessionState, SpectatorSession};

use crate::forensics::{FrameLog, FrameRecorder};
use crate::game::{PeerAddress, Predictor, RollbackConfig, RollbackGame};
use crate::requests::fulfil;
use crate::rollback::{Attached, MAX_EVENTS};
use crate::session::StepRateMismatch;
use crate::steps::PumpSteps;

/// A ggrs spectator session of game `G` over addresses `A` (with `P`, the
/// predictor of its configuration, which a spectator never uses), with
/// what it saw: the state of a [`Loop`] that [`Spectator::attach`] set up.
///
/// # Examples
///
/// See `tests/spectator.rs`: a host over the in-memory link's third end
/// ([`Link::with_spectator`](crate::Link::with_spectator)).
pub struct Spectator<
    G: RollbackGame,
    A: PeerAddress = SocketAddr,
    P: Predictor<G::Input> = PredictRepeatLast,
> {
    game: G,
    session: SpectatorSession<RollbackConfig<G, A, P>>,
    timestep: Timestep,
    /// The frame the game's state is at.
    frame: Frame,
    pump: PumpSteps<G::Input>,
    stats: SpectatorStats,
    events: VecDeque<GgrsEvent<RollbackConfig<G, A, P>>>,
    error: Option<GgrsError>,
    refused: Option<StepRateMismatch>,
    recorder: Option<FrameRecorder<G::Input>>,
}

/// What a spectator did, counted over its life.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpectatorStats {
    /// Frames run.
    pub frames: u64,
    /// Steps that ran at least one frame: the loop's ticks.
    pub steps: u64,
    /// Frames run beyond the first of their step, catching up:
    /// `frames = steps + catch_up_frames`.
    pub catch_up_frames: u64,
    /// The most frames one step ran (at most ggrs's catch-up speed).
    pub most_frames_in_a_step: u64,
    /// Times a step had no frame to run and gave its time back.
    pub stalls: u64,
    /// Steps given back, each give-back counting its step and the rest of
    /// its pump.
    pub refunded_steps: u64,
    /// How many frames of the host's input were waiting after the last
    /// step.
    pub frames_behind: usize,
    /// The most frames of the host's input that waited after a step.
    pub max_frames_behind: usize,
}

impl<G: RollbackGame, A: PeerAddress, P: Predictor<G::Input>> Spectator<G, A, P> {
    /// The game, at frame 0 (the host's opening state), and a session
    /// started for it (`SessionBuilder::start_spectator_session`) for steps
    /// of `timestep`, the host's. A loop stepping at another rate is
    /// refused at its first step, as [`Rollback::new`](crate::Rollback::new)
    /// refuses it.
    pub fn new(
        game: G,
        session: SpectatorSession<RollbackConfig<G, A, P>>,
        timestep: Timestep,
    ) -> Spectator<G, A, P> {
        Spectator {
            game,
            session,
            timestep,
            frame: 0,
            pump: PumpSteps::default(),
            stats: SpectatorStats::default(),
            events: VecDeque::new(),
            error: None,
            refused: None,
            recorder: None,
        }
    }

    /// Records every frame run (all are confirmed: the host sends only
    /// confirmed input) in a [frame log](crate::FrameLog), to compare
    /// with the host's ([`first_difference`](crate::first_difference)) or
    /// replay.
    #[must_use = "the spectator is returned recording frames"]
    pub fn recording_frames(mut self) -> Spectator<G, A, P> {
        self.recorder = Some(FrameRecorder::new(self.timestep));
        self
    }

    /// Registers the session on `game_loop`: a before-steps hook that polls
    /// the session and drains its events, and an update that runs its
    /// frames. Attach before any other update: the session's update may
    /// give the step back before anything changes.
    pub fn attach(game_loop: &mut Loop<Spectator<G, A, P>>) -> Attached {
        let before_steps = game_loop.on_before_steps(Spectator::before_steps);
        let update = game_loop.on_update(Spectator::step);
        Attached {
            before_steps,
            update,
        }
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The ggrs session: network statistics, frames behind the host.
    pub fn session(&self) -> &SpectatorSession<RollbackConfig<G, A, P>> {
        &self.session
    }

    /// The ggrs session, to change it. Advancing it or draining its events
    /// here takes them from the loop's steps.
    pub fn session_mut(&mut self) -> &mut SpectatorSession<RollbackConfig<G, A, P>> {
        &mut self.session
    }

    /// The frame the game's state is at.
    pub fn frame(&self) -> Frame {
        self.frame
    }

    /// The step the session was built for.
    pub fn timestep(&self) -> Timestep {
        self.timestep
    }

    /// Why the spectator refused to run, if it did: the loop stepped at
    /// another rate than the session was built for.
    pub fn refused(&self) -> Option<&StepRateMismatch> {
        self.refused.as_ref()
    }

    /// The figures so far.
    pub fn stats(&self) -> SpectatorStats {
        self.stats
    }

    /// The error that stopped the loop, if one did: the spectator fell
    /// further behind than ggrs keeps the host's input
    /// ([`GgrsError::SpectatorTooFarBehind`]), or the session refused.
    pub fn last_error(&self) -> Option<&GgrsError> {
        self.error.as_ref()
    }

    /// The session's events since the last call (synchronization,
    /// interruptions, the host's disconnection); at most the newest 256.
    pub fn take_events(&mut self) -> Vec<GgrsEvent<RollbackConfig<G, A, P>>> {
        self.events.drain(..).collect()
    }

    /// The frames recorded so far, if
    /// [recording](Spectator::recording_frames).
    pub fn frame_log(&self) -> Option<&FrameLog<G::Input>> {
        self.recorder.as_ref().map(FrameRecorder::log)
    }

    /// Ends recording and returns the frame log, if recording.
    pub fn take_frame_log(&mut self) -> Option<FrameLog<G::Input>> {
        self.recorder.take().map(FrameRecorder::into_log)
    }

    fn before_steps(&mut self, plan: &FramePlan) {
        self.session.poll_remote_clients();
        for event in self.session.events() {
            if self.events.len() == MAX_EVENTS {
                self.events.pop_front();
            }
            self.events.push_back(event);
        }
        self.pump.begin(plan.steps_run());
    }

    /// One advance of the session: every frame it hands out runs in this
    /// step.
    fn step(&mut self, step: &StepContext<'_>) {
        if step.timestep() != self.timestep {
            step.control().stop();
            self.refused = Some(StepRateMismatch {
                session: self.timestep,
                game_loop: step.timestep(),
            });
            return;
        }
        self.pump.step_begins();
        if self.session.current_state() != SessionState::Running {
            self.give_back(step);
            return;
        }
        match self.session.advance_frame() {
            Ok(requests) => self.run(requests, step.timestep()),
            // The host's input for the next frame has not arrived.
            Err(GgrsError::PredictionThreshold | GgrsError::NotSynchronized) => {
                self.give_back(step);
            }
            Err(error) => {
                step.control().stop();
                self.error = Some(error);
            }
        }
        self.stats.frames_behind = self.session.frames_behind_host();
        self.stats.max_frames_behind = self.stats.max_frames_behind.max(self.stats.frames_behind);
    }

    /// Runs the frames of one advance, recording each.
    fn run(
        &mut self,
        requests: Vec<ggrs::GgrsRequest<RollbackConfig<G, A, P>>>,
        timestep: Timestep,
    ) {
        let recorder = &mut self.recorder;
        let done = fulfil(
            &mut self.game,
            &mut self.frame,
            requests,
            timestep,
            |game, frame, inputs| {
                if let Some(recorder) = recorder.as_mut() {
                    recorder.simulated(frame, inputs, game.state_hash());
                    recorder.confirm(frame);
                }
            },
        );
        let stats = &mut self.stats;
        stats.frames += done.advances;
        stats.steps += 1;
        stats.catch_up_frames += done.advances.saturating_sub(1);
        stats.most_frames_in_a_step = stats.most_frames_in_a_step.max(done.advances);
    }

    /// No frame to run: this step and the rest of the pump go back to the
    /// loop's bank.
    fn give_back(&mut self, step: &StepContext<'_>) {
        step.control().refund_rest();
        self.stats.stalls += 1;
        self.stats.refunded_steps += self.pump.rest();
    }
}

impl<G: RollbackGame, A: PeerAddress, P: Predictor<G::Input>> std::fmt::Debug
    for Spectator<G, A, P>
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Spectator")
            .field("frame", &self.frame)
            .field("timestep", &self.timestep)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}
