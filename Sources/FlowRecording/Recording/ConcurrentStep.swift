/// The scenario step that the current task acts for, when steps run at the same time.
///
/// A scenario step that runs in the background (the phone's login that the server holds until the
/// browser has logged in, docs/protocol.md §8.2) runs in its own task with `current` bound to it. The
/// recorder stamps that task's events with it instead of the step the foreground is in, and the
/// replayer uses it to keep each step's events in the recorded order (see
/// ``Replayer/holdResponse(after:)``). Outside such a task it is nil and the step set by
/// `beginStep` applies.
package enum ConcurrentStep {
    @TaskLocal package static var current: ScenarioStep?
}
