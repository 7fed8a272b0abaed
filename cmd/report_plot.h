/*
 * report_plot: the report's gnuplot scripts and the run that draws them
 * (growth, growth-time, hosts and similarity, each as .gp, .svg, .png).
 */
#ifndef NC_REPORT_PLOT_H
#define NC_REPORT_PLOT_H

#include <stdio.h>

struct rep;

/* Write the four .gp scripts into the output directory. 0, or
 * REPORT_RUNTIME with the message set. */
int report_plot_write(struct rep *r);

/* Run gnuplot on them in the output directory. 0, or REPORT_RUNTIME with
 * the message set (gnuplot missing or failing). */
int report_plot_run(struct rep *r);

/*
 * For a plot of another command's, drawn the report's way: after the
 * script's settings, report_plot_svg sets the terminal to base.svg (900 by
 * 540, white, no enhanced text); the caller writes its plot command; then
 * report_plot_png draws it again with `replot` as base.png (pngcairo when
 * there, else libgd's png), so the command is written once.
 */
void report_plot_svg(FILE *f, const char *base);
void report_plot_png(FILE *f, const char *base);

/* Most scripts report_plot_gnuplot runs at once. */
#define REPORT_PLOT_SCRIPTS_MAX 8

/*
 * Run gnuplot on scripts (a NULL-ended list of names in the directory
 * dfd) inside that directory, so that no path passes through a shell or a
 * gnuplot string. 0 drawn; -1 when gnuplot could not be run, *e saying
 * why (ENOENT: not installed, Debian package gnuplot-nox); -2 when it
 * failed on a script.
 */
int report_plot_gnuplot(int dfd, char *const *scripts, int *e);

#endif
