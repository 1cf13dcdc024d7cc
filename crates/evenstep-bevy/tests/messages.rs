//! Contract: with the plugin, messages still reach `FixedUpdate` systems
//! as with Bevy's own loop: each message written in `Update` is read by a
//! `FixedUpdate` reader exactly once, though frames without a step come
//! between, and each written in `FixedUpdate` is read in `Update` once;
//! an event triggered in a `FixedUpdate` system reaches its observer once
//! per step.

#![allow(
    clippy::needless_pass_by_value,
    reason = "Bevy systems take their parameters by value"
)]

mod support;

use core::time::Duration;

use bevy_app::{App, FixedUpdate, Update};
use bevy_ecs::event::Event;
use bevy_ecs::message::{Message, MessageReader, MessageWriter};
use bevy_ecs::observer::On;
use bevy_ecs::resource::Resource;
use bevy_ecs::system::{Commands, Local, ResMut};
use evenstep_bevy::EvenstepSettings;

#[derive(Message, Clone, Copy)]
struct FromFrame(u32);

#[derive(Message, Clone, Copy)]
struct FromStep(u32);

#[derive(Resource, Default)]
struct Read {
    in_steps: Vec<u32>,
    in_frames: Vec<u32>,
}

fn write_each_frame(mut next: Local<u32>, mut out: MessageWriter<FromFrame>) {
    out.write(FromFrame(*next));
    *next += 1;
}

fn write_each_step(mut next: Local<u32>, mut out: MessageWriter<FromStep>) {
    out.write(FromStep(*next));
    *next += 1;
}

fn read_in_steps(mut messages: MessageReader<FromFrame>, mut read: ResMut<Read>) {
    read.in_steps
        .extend(messages.read().map(|message| message.0));
}

fn read_in_frames(mut messages: MessageReader<FromStep>, mut read: ResMut<Read>) {
    read.in_frames
        .extend(messages.read().map(|message| message.0));
}

/// Runs 120 Hz frames of 60 Hz steps (a step every other frame) and
/// returns what the readers read, and the steps run.
fn exchange(mut app: App) -> (Read, usize) {
    app.add_message::<FromFrame>()
        .add_message::<FromStep>()
        .init_resource::<Read>()
        .add_systems(Update, (write_each_frame, read_in_frames))
        .add_systems(FixedUpdate, (write_each_step, read_in_steps));
    let mut steps = support::frame(&mut app, Duration::ZERO);
    for _ in 0..240 {
        steps += support::frame(&mut app, Duration::from_nanos(8_333_333));
    }
    let read = app.world_mut().remove_resource::<Read>().unwrap();
    (read, steps)
}

#[test]
fn messages_written_in_update_reach_fixed_update_once_each() {
    let (read, steps) = exchange(support::app(60.0, Some(EvenstepSettings::default())));
    // Two seconds less 80 ns of frames: the default holds the one step
    // every other frame through the last, pacing off runs 119.
    assert_eq!(steps, 120);
    // Frame k's message is read by the next step: all of them, once, in
    // order, but the last frame's, which no step has followed yet.
    assert_eq!(read.in_steps, (0..240).collect::<Vec<_>>());
}

#[test]
fn messages_written_in_fixed_update_reach_update_once_each() {
    let (read, steps) = exchange(support::app(60.0, Some(EvenstepSettings::default())));
    assert_eq!(read.in_frames, (0..steps as u32).collect::<Vec<_>>());
}

#[test]
fn bevys_own_loop_delivers_the_same_messages() {
    let (read, steps) = exchange(support::app(60.0, None));
    assert_eq!(read.in_steps, (0..239).collect::<Vec<_>>());
    assert_eq!(read.in_frames, (0..steps as u32).collect::<Vec<_>>());
}

#[derive(Event)]
struct Stepped;

#[derive(Resource, Default)]
struct Observed(usize);

#[test]
fn events_triggered_in_fixed_update_reach_their_observers_once_per_step() {
    let mut app = support::app(60.0, Some(EvenstepSettings::default()));
    app.init_resource::<Observed>()
        .add_observer(|_: On<Stepped>, mut observed: ResMut<Observed>| observed.0 += 1)
        .add_systems(FixedUpdate, |mut commands: Commands| {
            commands.trigger(Stepped);
        });
    let mut steps = support::frame(&mut app, Duration::ZERO);
    for _ in 0..100 {
        steps += support::frame(&mut app, Duration::from_millis(7));
    }
    assert_eq!(steps, 42);
    assert_eq!(app.world().resource::<Observed>().0, steps);
}
