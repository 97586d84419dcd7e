// Connects to a Strata cluster with nothing but its connection URI, as an
// application would, and checks the keys a test wrote: <prefix>:<i> = v<i>.
// Usage: go run . <uri> <prefix> <count>
package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: go run . <uri> <prefix> <count>")
		os.Exit(2)
	}
	opts, err := redis.ParseClusterURL(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "bad uri:", err)
		os.Exit(2)
	}
	count, _ := strconv.Atoi(os.Args[3])
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rdb := redis.NewClusterClient(opts)
	defer rdb.Close()
	present := 0
	for i := 0; i < count; i++ {
		v, err := rdb.Get(ctx, os.Args[2]+":"+strconv.Itoa(i)).Result()
		if err == nil && v == "v"+strconv.Itoa(i) {
			present++
		} else if err != nil && err != redis.Nil {
			fmt.Fprintln(os.Stderr, "read failed:", err)
			os.Exit(1)
		}
	}
	if err := rdb.Set(ctx, os.Args[2]+":go-written", "yes", 0).Err(); err != nil {
		fmt.Fprintln(os.Stderr, "write failed:", err)
		os.Exit(1)
	}
	fmt.Printf("present %d\n", present)
}
