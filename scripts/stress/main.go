// Command stress loads every core of the machine until it is stopped: busy
// loops on twice as many threads as there are CPUs. `make stress` runs it
// beside `make test` to prove that no test depends on how fast the machine
// is (a test that passes only on an idle machine measures the machine, not
// the code).
//
// It stops on Ctrl-C (SIGINT), SIGTERM (make forwards that to its recipe)
// or SIGHUP, and also when its parent goes away, so a killed make never
// leaves the loops spinning.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"
)

func main() {
	threads := flag.Int("threads", 2*runtime.NumCPU(), "busy threads to run")
	flag.Parse()
	if *threads < 1 {
		fmt.Fprintln(os.Stderr, "stress: -threads must be at least 1")
		os.Exit(2)
	}

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)

	// Each loop gets an OS thread of its own: with GOMAXPROCS at the CPU
	// count, Go would run only that many of them at once.
	runtime.GOMAXPROCS(*threads + 1)
	for i := 0; i < *threads; i++ {
		go spin()
	}
	fmt.Printf("stress: %d busy threads on %d CPUs (pid %d); stop with Ctrl-C or kill %d\n",
		*threads, runtime.NumCPU(), os.Getpid(), os.Getpid())

	parent := os.Getppid()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case sig := <-stop:
			fmt.Printf("stress: %v, stopping\n", sig)
			return
		case <-tick.C:
			// Orphaned (make was killed outright): stop too.
			if os.Getppid() != parent {
				fmt.Println("stress: parent gone, stopping")
				return
			}
		}
	}
}

// spin burns one thread until the process exits.
func spin() {
	runtime.LockOSThread()
	x := uint64(1)
	for {
		// Enough work that the compiler keeps the loop; the loop is
		// preemptible, so the main goroutine still sees signals.
		x = x*6364136223846793005 + 1442695040888963407
		if x == 0 {
			fmt.Print("")
		}
	}
}
