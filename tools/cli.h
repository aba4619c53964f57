/* Subcommands of the hwcrypt command. Each returns the process exit code. */
#ifndef HWC_TOOLS_CLI_H
#define HWC_TOOLS_CLI_H
int hwc_cmd_info(int argc, char **argv);
int hwc_cmd_hash(int argc, char **argv);
int hwc_cmd_selftest(int argc, char **argv);
#endif
