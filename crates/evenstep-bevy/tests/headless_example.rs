//! Contract: the `headless` example draws its body where it stands from
//! the first frame on: no frame blends it up from the ground before the
//! first step.

#[allow(dead_code, reason = "the example's `main` runs in real time")]
#[path = "../examples/headless.rs"]
mod headless;

use core::time::Duration;

use bevy_app::App;
use bevy_diagnostic::FrameCountPlugin;
use bevy_time::{TimePlugin, TimeUpdateStrategy};

#[test]
fn every_height_drawn_in_the_first_ten_frames_is_within_a_metre_of_100_m() {
    let mut app = App::new();
    app.add_plugins((FrameCountPlugin, TimePlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_nanos(
            16_666_667,
        )));
    headless::demo(&mut app);
    app.finish();
    app.cleanup();
    let mut drawn = Vec::new();
    for _ in 0..10 {
        app.update();
        let world = app.world_mut();
        let mut query = world.query::<&headless::Drawn>();
        drawn.extend(query.iter(world).map(|height| height.0));
    }
    assert_eq!(drawn.len(), 10);
    for height in drawn {
        assert!((height - 100.0).abs() <= 1.0, "drawn at {height} m");
    }
}
