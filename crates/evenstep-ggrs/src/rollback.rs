//! A ggrs P2P session on an evenstep [`Loop`]: [`Rollback`] is the loop's
//! state, owning the game and the session, and [`Rollback::attach`]
//! registers what runs it.
//!
//! Each pump, the before-steps hook polls the session's sockets and
//! drains its events. Each planned step, the first update reads the local
//! players' input from the step, adds it to the session, advances the
//! session one frame and carries out its requests in order (save, load,
//! advance).
//!
//! ggrs takes a frame's local input the first time the frame is attempted
//! and keeps it, even when the frame then waits (in lockstep for the
//! peers' input, or at the prediction threshold). So a step whose input
//! ggrs took is spent on its frame: it is never given back, and its frame
//! runs at the first later step the session can advance it, before that
//! step's own frame. A step that finds the frame before it still waiting,
//! or the session still synchronizing, gives its time back with
//! [`Control::refund_rest`](evenstep::Control::refund_rest) before reading
//! any input: the loop keeps its input for the step that runs its tick,
//! the time stays banked, bounded by the loop's step budget, and waiting
//! for a peer never starts a spiral. Every event thus reaches exactly one
//! frame, as the loop promises it reaches exactly one step. Frames ggrs
//! recommends skipping are skipped with
//! [`Control::skip_rest`](evenstep::Control::skip_rest): their time is
//! dropped and reported, never refunded. Time sync sets the loop's speed
//! from how far this peer runs ahead (see [`TimeSync`]).

use std::collections::VecDeque;
use std::net::SocketAddr;

use evenstep::{FramePlan, Loop, Speed, StepContext, SubscriberId, Timestep};
use ggrs::{
    Config, Frame, GgrsError, GgrsEvent, GgrsRequest, P2PSession, PlayerHandle, PredictRepeatLast,
    SessionState,
};

use crate::forensics::{DesyncReport, FrameLog, FrameRecorder};
use crate::game::{PeerAddress, Predictor, RollbackConfig, RollbackGame};
use crate::requests::fulfil;
use crate::session::StepRateMismatch;
use crate::steps::PumpSteps;
use crate::time_sync::TimeSync;

/// The most events kept for [`Rollback::take_events`]; older ones are
/// dropped first.
pub(crate) const MAX_EVENTS: usize = 256;

/// A ggrs P2P session of game `G` over addresses `A`, predicting remote
/// inputs with `P` (see [`RollbackConfig`]), with what it saw: the state
/// of a [`Loop`] that [`Rollback::attach`] set up.
///
/// # Examples
///
/// See the crate documentation and the repository's
/// [`two_peers` example](https://github.com/evenstep/evenstep/blob/main/crates/evenstep-demo/examples/two_peers.rs).
pub struct Rollback<
    G: RollbackGame,
    A: PeerAddress = SocketAddr,
    P: Predictor<G::Input> = PredictRepeatLast,
> {
    game: G,
    session: P2PSession<RollbackConfig<G, A, P>>,
    /// The step the session was built for: every peer's frames last it.
    timestep: Timestep,
    local_handles: Vec<PlayerHandle>,
    /// The frame the game's state is at.
    frame: Frame,
    time_sync: TimeSync,
    /// The speed the pump's plan runs at.
    plan_speed: Speed,
    /// The pump in progress: its steps, the frames owed to skip, and the
    /// frame whose input ggrs took and that waits.
    pump: PumpSteps<G::Input>,
    seen: Seen<RollbackConfig<G, A, P>>,
    recorder: Option<FrameRecorder<G::Input>>,
}

/// What the session reported, and the figures the steps kept.
struct Seen<T: Config> {
    stats: RollbackStats,
    desync: Option<DesyncReport<T::Address>>,
    events: VecDeque<GgrsEvent<T>>,
    error: Option<GgrsError>,
    refused: Option<StepRateMismatch>,
}

/// What a session did, counted over its life.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RollbackStats {
    /// Frames the session advanced to (the newest frame reached).
    pub frames: u64,
    /// Rollbacks: snapshots loaded to correct a prediction.
    pub rollbacks: u64,
    /// Frames simulated again after a rollback.
    pub resimulated_frames: u64,
    /// Steps given back to the loop to run later because the session could
    /// not advance (synchronizing, or the frame before still waiting in
    /// lockstep or at the prediction threshold); each give-back counts this
    /// step and the rest of its pump.
    pub refunded_steps: u64,
    /// Times a step waited (give-backs), however many steps each returned.
    pub stalls: u64,
    /// Frames whose local input ggrs took and that then waited: each ran
    /// on a later step, before that step's own frame, and the step that
    /// read its input was not given back.
    pub waited_frames: u64,
    /// Steps skipped on the session's wait recommendations: their time
    /// dropped.
    pub skipped_steps: u64,
    /// Wait recommendations received.
    pub wait_recommendations: u64,
    /// Frames the wait recommendations asked to skip, in all: the steps
    /// skipped, and those still owed, add up to it.
    pub skips_recommended: u64,
    /// How many frames ahead of the other peers the session estimates this
    /// one is, as of the last advance (negative when behind).
    pub frames_ahead: i32,
    /// The most frames ahead the session estimated.
    pub max_frames_ahead: i32,
    /// Loads whose cell held no snapshot: the session asked for a frame it
    /// never had saved (a bug in the session, kept as a count, not a panic).
    pub missing_snapshots: u64,
}

/// The subscribers [`Rollback::attach`] registered, to remove them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attached {
    /// The before-steps hook: poll and events.
    pub before_steps: SubscriberId,
    /// The update: input, advance, requests.
    pub update: SubscriberId,
}

impl<G: RollbackGame, A: PeerAddress, P: Predictor<G::Input>> Rollback<G, A, P> {
    /// The game, at frame 0 (its opening state, equal on every peer), and
    /// a session started for it (`SessionBuilder::start_p2p_session`) for
    /// steps of `timestep`: the one given to
    /// [`session_builder`](crate::session_builder), which the loop must
    /// step at. With [`TimeSync::DEFAULT`] and no frame log.
    ///
    /// A loop stepping at another rate is refused at its first step: the
    /// loop is stopped, and [`refused`](Rollback::refused) names both
    /// steps. Between peers, the step rate is part of the checksum ggrs
    /// compares (see [`DesyncReport`]).
    pub fn new(
        game: G,
        session: P2PSession<RollbackConfig<G, A, P>>,
        timestep: Timestep,
    ) -> Rollback<G, A, P> {
        let mut local_handles = session.local_player_handles();
        local_handles.sort_unstable();
        Rollback {
            game,
            session,
            timestep,
            local_handles,
            frame: 0,
            time_sync: TimeSync::DEFAULT,
            plan_speed: Speed::NORMAL,
            pump: PumpSteps::default(),
            seen: Seen {
                stats: RollbackStats::default(),
                desync: None,
                events: VecDeque::new(),
                error: None,
                refused: None,
            },
            recorder: None,
        }
    }

    /// Sets how the loop's speed follows the session (see [`TimeSync`]).
    /// While time sync is on, the session owns the loop's speed: each step
    /// whose pump runs at another speed than the session wants asks for
    /// it again, so a speed the host set is taken back from the next pump.
    #[must_use = "the rollback is returned with the time sync set"]
    pub fn with_time_sync(mut self, time_sync: TimeSync) -> Rollback<G, A, P> {
        self.time_sync = time_sync;
        self
    }

    /// Records every confirmed frame (inputs and the state hash after it)
    /// in a [frame log](crate::FrameLog) at the session's step, for
    /// [`replay_frames`](crate::replay_frames) to check offline.
    #[must_use = "the rollback is returned recording frames"]
    pub fn recording_frames(mut self) -> Rollback<G, A, P> {
        self.recorder = Some(FrameRecorder::new(self.timestep));
        self
    }

    /// Registers the session on `game_loop`: a before-steps hook that polls
    /// the sockets and drains the events, and an update that runs the
    /// session's frames. Attach before registering any other update: the
    /// session's update must be the first of each step, since it may give
    /// the step back before anything changes.
    pub fn attach(game_loop: &mut Loop<Rollback<G, A, P>>) -> Attached {
        let before_steps = game_loop.on_before_steps(Rollback::before_steps);
        let update = game_loop.on_update(Rollback::step);
        Attached {
            before_steps,
            update,
        }
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The game, to change what the rules never read (a renderer's cache).
    /// Changing anything the state hash covers desyncs the peers, and a
    /// rollback may load it away.
    pub fn game_mut(&mut self) -> &mut G {
        &mut self.game
    }

    /// The ggrs session: network statistics, disconnecting a player,
    /// changing the input delay.
    pub fn session(&self) -> &P2PSession<RollbackConfig<G, A, P>> {
        &self.session
    }

    /// The ggrs session, to change it. Advancing it or draining its events
    /// here takes them from the loop's steps.
    pub fn session_mut(&mut self) -> &mut P2PSession<RollbackConfig<G, A, P>> {
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

    /// Why the session refused to run, if it did: the loop stepped at
    /// another rate than the session was built for. The loop was stopped
    /// at that step, and every step after it is refused the same way.
    pub fn refused(&self) -> Option<&StepRateMismatch> {
        self.seen.refused.as_ref()
    }

    /// The figures so far.
    pub fn stats(&self) -> RollbackStats {
        self.seen.stats
    }

    /// The first desync the session reported, with the number of reports.
    pub fn desync(&self) -> Option<&DesyncReport<A>> {
        self.seen.desync.as_ref()
    }

    /// The last error the session returned that was not a wait (a wait is
    /// a stall, counted in the stats).
    pub fn last_error(&self) -> Option<&GgrsError> {
        self.seen.error.as_ref()
    }

    /// The session's events since the last call, except wait
    /// recommendations and desyncs (carried out and reported by the
    /// session's steps): synchronization, interruptions and disconnections.
    /// At most the newest 256 are kept.
    pub fn take_events(&mut self) -> Vec<GgrsEvent<RollbackConfig<G, A, P>>> {
        self.seen.events.drain(..).collect()
    }

    /// The confirmed frames recorded so far, if
    /// [recording](Rollback::recording_frames).
    pub fn frame_log(&self) -> Option<&FrameLog<G::Input>> {
        self.recorder.as_ref().map(FrameRecorder::log)
    }

    /// Ends recording and returns the frame log, if recording.
    pub fn take_frame_log(&mut self) -> Option<FrameLog<G::Input>> {
        self.recorder.take().map(FrameRecorder::into_log)
    }

    /// The pump's hook: the sockets are polled, the events drained, and the
    /// pump's steps counted for the skips.
    fn before_steps(&mut self, plan: &FramePlan) {
        self.session.poll_remote_clients();
        let events: Vec<_> = self.session.events().collect();
        for event in events {
            self.seen.event(event, &mut self.pump);
        }
        self.pump.begin(plan.steps_run());
        self.plan_speed = plan.speed();
    }

    /// The first update of a step: one frame of the session, after the
    /// frame that waited for it, if one did.
    fn step(&mut self, step: &StepContext<'_>) {
        if step.timestep() != self.timestep {
            self.refuse(step);
            return;
        }
        if let Some(skipped) = self.pump.next_step_skips() {
            step.control().skip_rest();
            self.seen.stats.skipped_steps += skipped;
            return;
        }
        if self.session.current_state() != SessionState::Running
            || !self.run_waiting_frame(step.timestep())
        {
            self.give_back(step);
        } else {
            self.run_frame(step);
        }
        self.follow_speed(step);
    }

    /// The loop steps at another rate than the session was built for: the
    /// loop stops at once, before anything changed, and says why.
    fn refuse(&mut self, step: &StepContext<'_>) {
        step.control().stop();
        self.seen.refused = Some(StepRateMismatch {
            session: self.timestep,
            game_loop: step.timestep(),
        });
    }

    /// Runs the frame whose input ggrs took on an earlier step, if one
    /// waits. Returns whether none waits now.
    fn run_waiting_frame(&mut self, timestep: Timestep) -> bool {
        let Some((frame, inputs)) = self.pump.waiting() else {
            return true;
        };
        match self.advance(frame, &inputs, timestep) {
            Advance::Ran => {
                self.pump.advanced();
                true
            }
            Advance::Waits | Advance::Refused => false,
        }
    }

    /// Reads the step's local input and runs its frame. A frame that waits
    /// keeps the input ggrs took, and the step is spent on it.
    fn run_frame(&mut self, step: &StepContext<'_>) {
        let frame = self.session.current_frame();
        let inputs: Vec<G::Input> = self
            .local_handles
            .iter()
            .map(|&handle| self.game.local_input(handle, step))
            .collect();
        match self.advance(frame, &inputs, step.timestep()) {
            Advance::Ran => {}
            Advance::Waits => {
                self.seen.stats.waited_frames += 1;
                self.pump.waits(frame, inputs);
            }
            Advance::Refused => self.give_back(step),
        }
    }

    /// Adds the local `inputs` of `frame` and advances the session once.
    fn advance(&mut self, frame: Frame, inputs: &[G::Input], timestep: Timestep) -> Advance {
        for (&handle, &input) in self.local_handles.iter().zip(inputs) {
            if let Err(error) = self.session.add_local_input(handle, input) {
                self.seen.error = Some(error);
                return Advance::Refused;
            }
        }
        let confirmed = self.session.confirmed_frame();
        match self.session.advance_frame() {
            Ok(requests) => {
                if self.carry_out(requests, timestep, (frame, confirmed)) > frame {
                    Advance::Ran
                } else {
                    // ggrs took the input (lockstep waiting, the prediction
                    // threshold): it keeps it for the frame.
                    Advance::Waits
                }
            }
            // Refused before taking the input: the step reads it again.
            Err(error) => {
                if !matches!(
                    error,
                    GgrsError::PredictionThreshold | GgrsError::NotSynchronized
                ) {
                    self.seen.error = Some(error);
                }
                Advance::Refused
            }
        }
    }

    /// Carries out one advance's requests, counts them, and logs the
    /// frames up to `confirmed` (the session's confirmed frame before the
    /// advance, which the advance's rollbacks made final). `before` is the
    /// session's frame before the advance. Returns its frame after.
    fn carry_out(
        &mut self,
        requests: Vec<GgrsRequest<RollbackConfig<G, A, P>>>,
        timestep: Timestep,
        (before, confirmed): (Frame, Frame),
    ) -> Frame {
        let recorder = &mut self.recorder;
        let done = fulfil(
            &mut self.game,
            &mut self.frame,
            requests,
            timestep,
            |game, advanced, inputs| {
                if let Some(recorder) = recorder.as_mut() {
                    recorder.simulated(advanced, inputs, game.state_hash());
                }
            },
        );
        let now = self.session.current_frame();
        let stats = &mut self.seen.stats;
        stats.rollbacks += done.loads;
        stats.missing_snapshots += done.missing;
        let fresh = u64::from(now > before);
        stats.resimulated_frames += done.advances.saturating_sub(fresh);
        stats.frames = u64::try_from(now).unwrap_or(0);
        stats.frames_ahead = self.session.frames_ahead();
        stats.max_frames_ahead = stats.max_frames_ahead.max(stats.frames_ahead);
        if let Some(recorder) = self.recorder.as_mut() {
            recorder.confirm(confirmed.min(now - 1));
        }
        now
    }

    /// The session cannot advance this step, and has taken none of its
    /// input: it and the rest of the pump go back to the loop's bank.
    fn give_back(&mut self, step: &StepContext<'_>) {
        step.control().refund_rest();
        self.seen.stats.stalls += 1;
        self.seen.stats.refunded_steps += self.pump.rest();
    }

    /// Asks the loop for the speed the session wants, whenever the pump
    /// runs at another: when the wish changes, and when the host set a
    /// speed of its own.
    fn follow_speed(&mut self, step: &StepContext<'_>) {
        if !self.time_sync.is_on() {
            return;
        }
        let speed = self.time_sync.speed(self.session.frames_ahead());
        if speed != self.plan_speed {
            step.control().set_speed(speed);
        }
    }
}

/// What one advance of the session did with a frame.
enum Advance {
    /// The frame ran.
    Ran,
    /// ggrs took the frame's input and the frame waits.
    Waits,
    /// ggrs refused before taking the input (not synchronized, a bad
    /// handle).
    Refused,
}

impl<T: Config> Seen<T> {
    /// One event from the session: a wait is owed, a desync reported once,
    /// the rest kept for the game.
    fn event<I>(&mut self, event: GgrsEvent<T>, pump: &mut PumpSteps<I>) {
        match event {
            GgrsEvent::WaitRecommendation { skip_frames } => {
                self.stats.wait_recommendations += 1;
                self.stats.skips_recommended += u64::from(skip_frames);
                pump.owe_skips(u64::from(skip_frames));
            }
            GgrsEvent::DesyncDetected {
                frame,
                local_checksum,
                remote_checksum,
                addr,
            } => match self.desync.as_mut() {
                Some(report) => report.reports += 1,
                None => {
                    self.desync = Some(DesyncReport {
                        frame,
                        peer: addr,
                        local_checksum,
                        remote_checksum,
                        reports: 1,
                    });
                }
            },
            other => {
                if self.events.len() == MAX_EVENTS {
                    self.events.pop_front();
                }
                self.events.push_back(other);
            }
        }
    }
}

impl<G: RollbackGame, A: PeerAddress, P: Predictor<G::Input>> std::fmt::Debug
    for Rollback<G, A, P>
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rollback")
            .field("frame", &self.frame)
            .field("local_handles", &self.local_handles)
            .field("timestep", &self.timestep)
            .field("time_sync", &self.time_sync)
            .field("plan_speed", &self.plan_speed)
            .field("stats", &self.seen.stats)
            .finish_non_exhaustive()
    }
}
