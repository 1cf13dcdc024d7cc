//! Contract: under the plugin, a message written in `PreUpdate` (where
//! Bevy's input messages are written) is read by a `FixedUpdate`
//! `MessageReader` exactly once, in the first fixed step that runs after it
//! was written: in frames of 0, 1, 2 and 3 steps, across runs of frames
//! without a step, a pause, and a stall the budget clamps, as under Bevy's
//! own loop. A per-frame "just pressed" resource, as `ButtonInput` is, read
//! in `FixedUpdate` is seen by every step of its frame and missed by a
//! frame without one.

#![allow(
    clippy::needless_pass_by_value,
    reason = "Bevy systems take their parameters by value"
)]

mod support;

use core::time::Duration;

use bevy_app::{App, FixedUpdate, Last, PreUpdate};
use bevy_ecs::message::{
    Message, MessageReader, MessageRegistry, MessageWriter, Messages, ShouldUpdateMessages,
};
use bevy_ecs::resource::Resource;
use bevy_ecs::system::{Res, ResMut};
use bevy_time::{Time, Virtual};
use evenstep_bevy::{EvenstepSettings, Pacing};

/// A press, numbered by the test.
#[derive(Message, Clone, Copy)]
struct Pressed(u32);

/// The presses `PreUpdate` writes this frame.
#[derive(Resource, Default)]
struct ThisFrame(Vec<u32>);

/// This frame's presses only, replaced in `PreUpdate`: what
/// `ButtonInput::just_pressed` answers.
#[derive(Resource, Default)]
struct JustPressed(Vec<u32>);

/// What each fixed step saw, in order.
#[derive(Resource, Default)]
struct Steps {
    /// The presses its `MessageReader` read.
    read: Vec<Vec<u32>>,
    /// The presses `JustPressed` held.
    just_pressed: Vec<Vec<u32>>,
}

/// Writes the frame's presses as messages and as `JustPressed`, in
/// `PreUpdate`, as Bevy's input systems do.
fn press(
    this_frame: Res<ThisFrame>,
    mut out: MessageWriter<Pressed>,
    mut just: ResMut<JustPressed>,
) {
    just.0.clone_from(&this_frame.0);
    for &id in &this_frame.0 {
        out.write(Pressed(id));
    }
}

fn step(mut pressed: MessageReader<Pressed>, just: Res<JustPressed>, mut steps: ResMut<Steps>) {
    steps
        .read
        .push(pressed.read().map(|press| press.0).collect());
    steps.just_pressed.push(just.0.clone());
}

/// One frame of a script: its real delta, the presses it writes, and
/// whether `Time<Virtual>` is paused for it.
struct Frame {
    delta: Duration,
    presses: &'static [u32],
    paused: bool,
}

const fn frame(millis: u64, presses: &'static [u32]) -> Frame {
    Frame {
        delta: Duration::from_millis(millis),
        presses,
        paused: false,
    }
}

const fn paused(millis: u64, presses: &'static [u32]) -> Frame {
    Frame {
        paused: true,
        ..frame(millis, presses)
    }
}

/// Per frame, per step of it: what the step read, and what it saw just
/// pressed; and per frame, the message registry's signal at its end.
#[derive(Debug, Default)]
struct Trace {
    read: Vec<Vec<Vec<u32>>>,
    just_pressed: Vec<Vec<Vec<u32>>>,
    signals: Vec<ShouldUpdateMessages>,
}

/// A 50 Hz app (20 ms steps), with the plugin unpaced when `evenstep`,
/// Bevy's own loop otherwise, that presses and reads as above.
fn app(evenstep: bool) -> App {
    let settings = EvenstepSettings {
        pacing: Pacing::OFF,
        ..EvenstepSettings::default()
    };
    let mut app = support::app(50.0, evenstep.then_some(settings));
    app.add_message::<Pressed>()
        .init_resource::<ThisFrame>()
        .init_resource::<JustPressed>()
        .init_resource::<Steps>()
        .add_systems(PreUpdate, press)
        .add_systems(FixedUpdate, step);
    app
}

fn run(app: &mut App, script: &[Frame]) -> Trace {
    let mut trace = Trace::default();
    for frame in script {
        app.world_mut().resource_mut::<ThisFrame>().0 = frame.presses.to_vec();
        let mut virt = app.world_mut().resource_mut::<Time<Virtual>>();
        if frame.paused {
            virt.pause();
        } else {
            virt.unpause();
        }
        let before = app.world().resource::<Steps>().read.len();
        support::frame(app, frame.delta);
        let steps = app.world().resource::<Steps>();
        trace.read.push(steps.read[before..].to_vec());
        trace
            .just_pressed
            .push(steps.just_pressed[before..].to_vec());
        let registry = app.world().resource::<MessageRegistry>();
        trace.signals.push(registry.should_update);
    }
    trace
}

/// Frames of 0, 1, 2 and 3 steps, and four frames in a row of which only
/// the last runs a step.
const MIXED: [Frame; 12] = [
    frame(0, &[0]),    // 0 steps: the first frame
    frame(20, &[1]),   // 1
    frame(10, &[2]),   // 0
    frame(10, &[3]),   // 1
    frame(40, &[4]),   // 2
    frame(60, &[5]),   // 3
    frame(5, &[6]),    // 0
    frame(5, &[7]),    // 0
    frame(5, &[8, 9]), // 0
    frame(5, &[10]),   // 1
    frame(20, &[]),    // 1
    frame(20, &[11]),  // 1
];

/// What the steps of `MIXED` read: each press once, in the first step after
/// the frame that wrote it.
fn mixed_reads() -> Vec<Vec<Vec<u32>>> {
    vec![
        vec![],
        vec![vec![0, 1]],
        vec![],
        vec![vec![2, 3]],
        vec![vec![4], vec![]],
        vec![vec![5], vec![], vec![]],
        vec![],
        vec![],
        vec![],
        vec![vec![6, 7, 8, 9, 10]],
        vec![vec![]],
        vec![vec![11]],
    ]
}

#[test]
fn each_message_reaches_the_first_fixed_step_after_it_was_written_once() {
    let trace = run(&mut app(true), &MIXED);
    assert_eq!(trace.read, mixed_reads());
}

#[test]
fn bevys_own_loop_delivers_the_same_messages_to_the_same_steps() {
    let trace = run(&mut app(false), &MIXED);
    assert_eq!(trace.read, mixed_reads());
}

#[test]
fn a_per_frame_just_pressed_is_seen_by_every_step_of_its_frame_and_missed_by_a_frame_without_one() {
    let trace = run(&mut app(true), &MIXED);
    assert_eq!(
        trace.just_pressed,
        [
            vec![], // 0 missed
            vec![vec![1]],
            vec![], // 2 missed
            vec![vec![3]],
            vec![vec![4], vec![4]], // pressed twice
            vec![vec![5], vec![5], vec![5]],
            vec![], // 6, 7, 8 and 9 missed
            vec![],
            vec![],
            vec![vec![10]],
            vec![vec![]],
            vec![vec![11]],
        ]
    );
}

#[test]
fn the_plugin_signals_a_message_update_only_on_frames_that_run_a_step() {
    let mut app = app(true);
    let trace = run(&mut app, &MIXED);
    let (ready, waiting) = (ShouldUpdateMessages::Ready, ShouldUpdateMessages::Waiting);
    assert_eq!(
        trace.signals,
        [
            waiting, ready, waiting, ready, ready, ready, waiting, waiting, waiting, ready, ready,
            ready
        ]
    );
    // So messages read are freed: what is left is the last frame's press,
    // and the frame before's, which wrote none.
    assert_eq!(app.world().resource::<Messages<Pressed>>().len(), 1);
}

/// Sets the messages to update at every frame's start, whether a step ran
/// or not: what the gate on `FixedMain` prevents.
fn update_every_frame(mut registry: ResMut<MessageRegistry>) {
    registry.should_update = ShouldUpdateMessages::Ready;
}

#[test]
fn without_the_gate_on_fixed_steps_messages_would_be_lost_across_frames_without_a_step() {
    let mut app = app(true);
    app.add_systems(Last, update_every_frame);
    let trace = run(&mut app, &MIXED);
    // The control: the contract's test would catch this. Of the four
    // frames without a step before frame 9's, the first two's presses are
    // dropped by two updates before a step reads them.
    assert_eq!(trace.read[9], [vec![8, 9, 10]]);
    assert_ne!(trace.read, mixed_reads());
}

#[test]
fn presses_during_a_pause_reach_the_first_step_after_it() {
    let script = [
        frame(0, &[0]),
        frame(20, &[1]),
        paused(20, &[2]),
        paused(20, &[3]),
        paused(20, &[4]),
        // The frame after the resume has a zero delta: still no step.
        frame(20, &[5]),
        frame(20, &[6]),
        frame(20, &[7]),
    ];
    let trace = run(&mut app(true), &script);
    assert_eq!(
        trace.read,
        [
            vec![],
            vec![vec![0, 1]],
            vec![],
            vec![],
            vec![],
            vec![],
            vec![vec![2, 3, 4, 5, 6]],
            vec![vec![7]],
        ]
    );
}

#[test]
fn a_stall_the_budget_clamps_hands_its_messages_to_its_first_step() {
    let script = [
        frame(0, &[0]),
        frame(20, &[1]),
        frame(200, &[2]),    // 10 steps due, 5 run
        frame(400, &[3, 4]), // 20 due, past max_delta: 5 run
        frame(20, &[5]),
    ];
    let mut app = app(true);
    let trace = run(&mut app, &script);
    assert_eq!(
        trace.read,
        [
            vec![],
            vec![vec![0, 1]],
            vec![vec![2], vec![], vec![], vec![], vec![]],
            vec![vec![3, 4], vec![], vec![], vec![], vec![]],
            vec![vec![5]],
        ]
    );
}
