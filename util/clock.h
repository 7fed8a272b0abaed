/*
 * clock: the two clocks the project reads. Monotonic milliseconds measure
 * durations and schedule (they never jump when the system time is set);
 * wall-clock seconds are for what is stored and shown (fetch times).
 */
#ifndef NC_CLOCK_H
#define NC_CLOCK_H

/* Milliseconds since an arbitrary fixed point (CLOCK_MONOTONIC). */
double clock_mono_ms(void);

/* Seconds since the Unix epoch, with fractions (CLOCK_REALTIME). */
double clock_wall_s(void);

#endif
