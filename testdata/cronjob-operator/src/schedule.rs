//! Cron schedules: parsing (the validating webhook refuses what does not parse) and the runs a
//! CronJob missed (the controller starts the latest). kubebuilder's tutorial uses
//! `github.com/robfig/cron`'s `ParseStandard`; here it is `croner`, with the same five fields
//! (minute, hour, day of month, month, day of week) and the `@hourly`-style aliases, no seconds.

use std::fmt;

use croner::Cron;
use croner::parser::{CronParser, Seconds, Year};
use k8s_openapi::jiff::Timestamp;
use k8s_openapi::jiff::tz::TimeZone;

/// How many missed runs the controller looks through before it gives up, as the tutorial
/// does: past that the clock is skewed or the schedule is far behind.
pub const MAX_MISSED_RUNS: usize = 100;

/// A parsed five-field cron schedule, evaluated in UTC.
#[derive(Clone, Debug)]
pub struct Schedule(Cron);

/// A schedule that does not parse, with croner's reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid cron schedule {schedule:?}: {reason}")]
pub struct ParseError {
    pub schedule: String,
    pub reason: String,
}

/// The runs between the last one and now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Runs {
    /// The latest scheduled time not after now that has not run, if any.
    pub missed: Option<Timestamp>,
    /// The first scheduled time after now.
    pub next: Timestamp,
}

/// Why the runs could not be computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RunsError {
    #[error(
        "too many missed start times (> {MAX_MISSED_RUNS}): set or decrease \
         .spec.startingDeadlineSeconds or check clock skew"
    )]
    TooManyMissed,
    #[error("the schedule has no time after {0}")]
    NoNextTime(Timestamp),
}

impl Schedule {
    /// Parses a standard cron line: five fields or an alias such as `@daily`.
    pub fn parse(schedule: &str) -> Result<Self, ParseError> {
        let parser = CronParser::builder()
            .seconds(Seconds::Disallowed)
            .year(Year::Disallowed)
            .build();
        parser
            .parse(schedule)
            .map(Schedule)
            .map_err(|error| ParseError {
                schedule: schedule.to_owned(),
                reason: error.to_string(),
            })
    }

    /// The first scheduled time strictly after `time`.
    pub fn next_after(&self, time: Timestamp) -> Option<Timestamp> {
        let zoned = time.to_zoned(TimeZone::UTC);
        self.0
            .find_next_occurrence(&zoned, false)
            .ok()
            .map(|next| next.timestamp())
    }

    /// The runs of a CronJob whose last run (or creation) was at `last`, at `now`: the latest
    /// scheduled time in `(earliest, now]` and the next one after now. With a starting deadline,
    /// times older than `now - deadline` are too late to start and are not looked at, which is
    /// also what keeps a long-suspended CronJob from counting thousands of missed runs.
    pub fn runs(
        &self,
        last: Timestamp,
        starting_deadline_seconds: Option<i64>,
        now: Timestamp,
    ) -> Result<Runs, RunsError> {
        let mut earliest = last;
        if let Some(deadline) = starting_deadline_seconds {
            let scheduling_deadline = now - k8s_openapi::jiff::SignedDuration::from_secs(deadline);
            earliest = earliest.max(scheduling_deadline);
        }
        let next = |time| self.next_after(time).ok_or(RunsError::NoNextTime(time));
        if earliest > now {
            return Ok(Runs {
                missed: None,
                next: next(now)?,
            });
        }
        let mut missed = None;
        let mut count = 0;
        let mut time = next(earliest)?;
        while time <= now {
            missed = Some(time);
            count += 1;
            if count > MAX_MISSED_RUNS {
                return Err(RunsError::TooManyMissed);
            }
            time = next(time)?;
        }
        Ok(Runs { missed, next: time })
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(time: &str) -> Timestamp {
        time.parse().unwrap()
    }

    #[test]
    fn standard_lines_and_aliases_parse() {
        for line in [
            "*/1 * * * *",
            "0 9 * * 1-5",
            "30 2 1 jan *",
            "@hourly",
            "@daily",
        ] {
            Schedule::parse(line).unwrap_or_else(|e| panic!("{e}"));
        }
    }

    #[test]
    fn bad_lines_are_refused_with_the_line() {
        for line in ["", "* * * *", "0 * * * * *", "61 * * * *", "not a schedule"] {
            let error = Schedule::parse(line).expect_err(line);
            assert_eq!(error.schedule, line);
            assert!(error.to_string().contains(&format!("{line:?}")), "{error}");
        }
    }

    #[test]
    fn the_latest_missed_run_and_the_next_one() {
        let schedule = Schedule::parse("*/5 * * * *").unwrap();
        let runs = schedule
            .runs(at("2026-01-01T10:00:00Z"), None, at("2026-01-01T10:12:00Z"))
            .unwrap();
        assert_eq!(runs.missed, Some(at("2026-01-01T10:10:00Z")));
        assert_eq!(runs.next, at("2026-01-01T10:15:00Z"));
    }

    #[test]
    fn nothing_is_missed_before_the_first_scheduled_time() {
        let schedule = Schedule::parse("0 * * * *").unwrap();
        let runs = schedule
            .runs(at("2026-01-01T10:00:00Z"), None, at("2026-01-01T10:59:59Z"))
            .unwrap();
        assert_eq!(runs.missed, None);
        assert_eq!(runs.next, at("2026-01-01T11:00:00Z"));
    }

    #[test]
    fn more_than_a_hundred_missed_runs_is_an_error() {
        let schedule = Schedule::parse("* * * * *").unwrap();
        let runs = schedule.runs(at("2026-01-01T10:00:00Z"), None, at("2026-01-01T11:41:00Z"));
        assert_eq!(runs, Err(RunsError::TooManyMissed));
    }

    #[test]
    fn the_starting_deadline_bounds_how_far_back_runs_are_looked_for() {
        let schedule = Schedule::parse("* * * * *").unwrap();
        let runs = schedule
            .runs(
                at("2026-01-01T10:00:00Z"),
                Some(90),
                at("2026-01-01T11:41:30Z"),
            )
            .unwrap();
        assert_eq!(runs.missed, Some(at("2026-01-01T11:41:00Z")));
        assert_eq!(runs.next, at("2026-01-01T11:42:00Z"));
    }
}
