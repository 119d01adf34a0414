// libyaml's parser API (yaml_parser_*, yaml_event_*), from the system's <yaml.h>.
#include <yaml.h>
