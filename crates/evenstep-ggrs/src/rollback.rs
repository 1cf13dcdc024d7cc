//! A ggrs P2P session on an evenstep [`Loop`]: [`Rollback`] is the loop's
//! state, owning the game and the session, and [`Rollback::attach`]
//! registers what runs it.
//!
//! Each pump, the before-steps hook polls the session's sockets and
//! drains its events. Each planned step, the first update reads the local
//! players' input from the step, adds it to the session, advances the
//! session one frame and carries out its requests in order (save, load,
//! advance). A step the session cannot advance yet (still synchronizing,
//! waiting for a peer in lockstep, or at the prediction threshold) gives
//! its time back with [`Control::refund_rest`](evenstep::Control::refund_rest):
//! the time stays banked, bounded by the loop's step budget, and runs on a
//! later pump, so waiting for a peer never starts a spiral. Frames ggrs
//! recommends skipping are skipped with
//! [`Control::skip_rest`](evenstep::Control::skip_rest): their time is
//! dropped and reported, never refunded. Time sync sets the loop's speed
//! from how far this peer runs ahead (see [`TimeSync`]).

use std::collections::VecDeque;
use std::net::SocketAddr;

use evenstep::{Loop, Speed, StepContext, SubscriberId, Timestep};
use ggrs::{
    Config, Frame, GgrsError, GgrsEvent, GgrsRequest, P2PSession, PlayerHandle, SessionState,
};

use crate::forensics::{DesyncReport, FrameLog, FrameRecorder};
use crate::game::{PeerAddress, RollbackConfig, RollbackGame};
use crate::requests::fulfil;
use crate::steps::PumpSteps;
use crate::time_sync::TimeSync;

/// The most events kept for [`Rollback::take_events`]; older ones are
/// dropped first.
const MAX_EVENTS: usize = 256;

/// A ggrs P2P session of game `G` over addresses `A`, with what it saw:
/// the state of a [`Loop`] that [`Rollback::attach`] set up.
///
/// # Examples
///
/// See the crate documentation and `examples/two_peers.rs`.
pub struct Rollback<G: RollbackGame, A: PeerAddress = SocketAddr> {
    game: G,
    session: P2PSession<RollbackConfig<G, A>>,
    local_handles: Vec<PlayerHandle>,
    /// The frame the game's state is at.
    frame: Frame,
    time_sync: TimeSync,
    /// The speed last asked of the loop.
    speed: Speed,
    /// The pump in progress: its steps, the frames owed to skip, and the
    /// input of a frame that stalled.
    pump: PumpSteps<G::Input>,
    seen: Seen<RollbackConfig<G, A>>,
    recorder: Option<FrameRecorder<G::Input>>,
}

/// What the session reported, and the figures the steps kept.
struct Seen<T: Config> {
    stats: RollbackStats,
    desync: Option<DesyncReport<T::Address>>,
    events: VecDeque<GgrsEvent<T>>,
    error: Option<GgrsError>,
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
    /// not advance (synchronizing, waiting in lockstep, at the prediction
    /// threshold); each give-back counts this step and the rest of its pump.
    pub refunded_steps: u64,
    /// Times a step waited (give-backs), however many steps each returned.
    pub stalls: u64,
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

impl<G: RollbackGame, A: PeerAddress> Rollback<G, A> {
    /// The game, at frame 0 (its opening state, equal on every peer), and
    /// a session started for it (`SessionBuilder::start_p2p_session`),
    /// with [`TimeSync::DEFAULT`] and no frame log.
    pub fn new(game: G, session: P2PSession<RollbackConfig<G, A>>) -> Rollback<G, A> {
        let mut local_handles = session.local_player_handles();
        local_handles.sort_unstable();
        Rollback {
            game,
            session,
            local_handles,
            frame: 0,
            time_sync: TimeSync::DEFAULT,
            speed: Speed::NORMAL,
            pump: PumpSteps::default(),
            seen: Seen {
                stats: RollbackStats::default(),
                desync: None,
                events: VecDeque::new(),
                error: None,
            },
            recorder: None,
        }
    }

    /// Sets how the loop's speed follows the session (see [`TimeSync`]).
    /// While time sync is on, the session owns the loop's speed: it sets it
    /// from the first update of each step, whatever the host set.
    #[must_use = "the rollback is returned with the time sync set"]
    pub fn with_time_sync(mut self, time_sync: TimeSync) -> Rollback<G, A> {
        self.time_sync = time_sync;
        self
    }

    /// Records every confirmed frame (inputs and the state hash after it)
    /// in a [frame log](crate::FrameLog) at the loop's `timestep`, for
    /// [`replay_frames`](crate::replay_frames) to check offline.
    #[must_use = "the rollback is returned recording frames"]
    pub fn recording_frames(mut self, timestep: Timestep) -> Rollback<G, A> {
        self.recorder = Some(FrameRecorder::new(timestep));
        self
    }

    /// Registers the session on `game_loop`: a before-steps hook that polls
    /// the sockets and drains the events, and an update that runs the
    /// session's frames. Attach before registering any other update: the
    /// session's update must be the first of each step, since it may give
    /// the step back before anything changes.
    pub fn attach(game_loop: &mut Loop<Rollback<G, A>>) -> Attached {
        let before_steps =
            game_loop.on_before_steps(|rollback, plan| rollback.before_steps(plan.steps_run()));
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
    pub fn session(&self) -> &P2PSession<RollbackConfig<G, A>> {
        &self.session
    }

    /// The ggrs session, to change it. Advancing it or draining its events
    /// here takes them from the loop's steps.
    pub fn session_mut(&mut self) -> &mut P2PSession<RollbackConfig<G, A>> {
        &mut self.session
    }

    /// The frame the game's state is at.
    pub fn frame(&self) -> Frame {
        self.frame
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
    pub fn take_events(&mut self) -> Vec<GgrsEvent<RollbackConfig<G, A>>> {
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
    fn before_steps(&mut self, planned: u64) {
        self.session.poll_remote_clients();
        let events: Vec<_> = self.session.events().collect();
        for event in events {
            self.seen.event(event, &mut self.pump);
        }
        self.pump.begin(planned);
    }

    /// The first update of a step: one frame of the session.
    fn step(&mut self, step: &StepContext<'_>) {
        if let Some(skipped) = self.pump.next_step_skips() {
            step.control().skip_rest();
            self.seen.stats.skipped_steps += skipped;
            return;
        }
        if self.session.current_state() == SessionState::Running {
            self.advance(step);
        } else {
            self.stall(step);
        }
        self.follow_speed(step);
    }

    /// Adds the local input and advances the session one frame.
    fn advance(&mut self, step: &StepContext<'_>) {
        let frame = self.session.current_frame();
        let inputs = match self.pump.stalled_input(frame) {
            Some(inputs) => inputs,
            None => self
                .local_handles
                .iter()
                .map(|&handle| self.game.local_input(handle, step))
                .collect(),
        };
        for (&handle, &input) in self.local_handles.iter().zip(&inputs) {
            if let Err(error) = self.session.add_local_input(handle, input) {
                self.seen.error = Some(error);
                self.stall(step);
                return;
            }
        }
        let confirmed = self.session.confirmed_frame();
        match self.session.advance_frame() {
            Ok(requests) => {
                if self.carry_out(requests, step.timestep(), (frame, confirmed)) > frame {
                    self.pump.advanced();
                } else {
                    self.pump.stalled(frame, inputs);
                    self.stall(step);
                }
            }
            Err(error) => {
                if !matches!(
                    error,
                    GgrsError::PredictionThreshold | GgrsError::NotSynchronized
                ) {
                    self.seen.error = Some(error);
                }
                self.stall(step);
            }
        }
    }

    /// Carries out one advance's requests, counts them, and logs the
    /// frames up to `confirmed` (the session's confirmed frame before the
    /// advance, which the advance's rollbacks made final). `before` is the
    /// session's frame before the advance. Returns its frame after.
    fn carry_out(
        &mut self,
        requests: Vec<GgrsRequest<RollbackConfig<G, A>>>,
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

    /// The session cannot advance this step: it and the rest of the pump
    /// go back to the loop's bank.
    fn stall(&mut self, step: &StepContext<'_>) {
        step.control().refund_rest();
        self.seen.stats.stalls += 1;
        self.seen.stats.refunded_steps += self.pump.rest();
    }

    /// Sets the loop's speed from how far ahead the session runs, when it
    /// changes.
    fn follow_speed(&mut self, step: &StepContext<'_>) {
        if !self.time_sync.is_on() {
            return;
        }
        let speed = self.time_sync.speed(self.session.frames_ahead());
        if speed != self.speed {
            self.speed = speed;
            step.control().set_speed(speed);
        }
    }
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

impl<G: RollbackGame, A: PeerAddress> std::fmt::Debug for Rollback<G, A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rollback")
            .field("frame", &self.frame)
            .field("local_handles", &self.local_handles)
            .field("time_sync", &self.time_sync)
            .field("speed", &self.speed)
            .field("stats", &self.seen.stats)
            .finish_non_exhaustive()
    }
}
