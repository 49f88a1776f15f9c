package rest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// cpuSplit measures where the CPU of a phase goes: the local PostgreSQL's
// processes and this one (the service and its load client), per unit of
// work, averaged over the phases measured.
type cpuSplit struct {
	pg, self float64 // milliseconds per unit, summed over n phases
	n        int
}

// measure runs phase, which returns its rate (units per second) after
// running for window, and samples the CPU used from a sixth of the window
// into it to a sixth before its end (half a second of the default three),
// while every connection it opened is still open (pgbench's close as it
// ends, and their time leaves /proc).
func (s *cpuSplit) measure(window time.Duration, phase func() float64) float64 {
	type sample struct {
		at       time.Time
		pg, self time.Duration
	}
	take := func() sample { return sample{time.Now(), postgresCPU(), selfCPU()} }
	samples := make(chan [2]sample, 1)
	margin := window / 6
	go func() {
		time.Sleep(margin)
		first := take()
		time.Sleep(window - 2*margin)
		samples <- [2]sample{first, take()}
	}()
	rate := phase()
	got := <-samples
	elapsed := got[1].at.Sub(got[0].at).Seconds()
	perUnit := func(d time.Duration) float64 { return d.Seconds() * 1000 / elapsed / rate }
	s.pg += perUnit(got[1].pg - got[0].pg)
	s.self += perUnit(got[1].self - got[0].self)
	s.n++
	return rate
}

// report prints and reports the means under unit ("http-req").
func (s *cpuSplit) report(c *costBench, unit string) {
	if s.n == 0 {
		return
	}
	pg, self := s.pg/float64(s.n), s.self/float64(s.n)
	fmt.Printf("CPU per %s: PostgreSQL %.2f ms, this process %.2f ms\n", unit, pg, self)
	c.b.ReportMetric(pg, "pg-ms/"+unit)
	c.b.ReportMetric(self, "go-ms/"+unit)
}

// postgresCPU is the CPU time (user and system) the running processes named
// postgres have used, read from /proc (none without it).
func postgresCPU() time.Duration {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var ticks int64
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // it ended
		}
		// pid (comm) state ... utime and stime are fields 14 and 15.
		s := string(b)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open || s[open+1:end] != "postgres" {
			continue
		}
		if fields := strings.Fields(s[end+1:]); len(fields) > 12 {
			user, _ := strconv.ParseInt(fields[11], 10, 64)
			system, _ := strconv.ParseInt(fields[12], 10, 64)
			ticks += user + system
		}
	}
	return time.Duration(ticks) * time.Second / 100 // USER_HZ
}

// selfCPU is the CPU time (user and system) this process has used.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
