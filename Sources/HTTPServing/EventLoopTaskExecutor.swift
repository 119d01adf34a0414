import NIOCore

/// Runs a Swift task's jobs on one SwiftNIO event loop: the task executor (SE-0417) the servers of
/// this module give each request's task, so that a request is read, answered and written on its
/// connection's event loop without handing it to another thread and back. Actors without an
/// executor of their own (the backend's state) run there too while that task calls them.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
