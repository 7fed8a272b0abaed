/*
 * report_plot: the report's gnuplot scripts and the run that draws them
 * (growth, growth-time, hosts and similarity, each as .gp, .svg, .png).
 */
#ifndef NC_REPORT_PLOT_H
#define NC_REPORT_PLOT_H

struct rep;

/* Write the four .gp scripts into the output directory. 0, or
 * REPORT_RUNTIME with the message set. */
int report_plot_write(struct rep *r);

/* Run gnuplot on them in the output directory. 0, or REPORT_RUNTIME with
 * the message set (gnuplot missing or failing). */
int report_plot_run(struct rep *r);

#endif
