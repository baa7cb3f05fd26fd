/*
 * Asks libmemcached which server each key goes to (memcached_generate_hash: no server is
 * contacted), for one configuration:
 *   libmemcached-route STYLE KEYS_FILE FAILOVER_KEYS HOST:PORT:WEIGHT...
 * STYLE: weighted | ketama | ketama-md5 | spymemcached. Prints "owners" and one owner index per
 * key, then, for the first FAILOVER_KEYS keys, "failover KEY_INDEX c1 c2 c3": c2 is the owner on
 * a client configured the same way over the servers without c1, c3 without c1 and c2 (what
 * libmemcached's auto-ejection does: update_continuum over the live servers).
 */
#include <libmemcached/memcached.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *style;
static int nservers;
static char hosts[64][256];
static int ports[64];
static int weights[64];

static memcached_st *client(const int *skip) {
    memcached_st *memc = memcached_create(NULL);
    if (strcmp(style, "weighted") == 0) {
        memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED, 1);
    } else if (strcmp(style, "ketama") == 0) {
        memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_KETAMA, 1);
    } else if (strcmp(style, "ketama-md5") == 0) {
        memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_KETAMA, 1);
        memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_HASH, MEMCACHED_HASH_MD5);
    } else if (strcmp(style, "spymemcached") == 0) {
        memcached_behavior_set_distribution(memc, MEMCACHED_DISTRIBUTION_CONSISTENT_KETAMA_SPY);
        memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_HASH, MEMCACHED_HASH_MD5);
    } else {
        fprintf(stderr, "unknown style %s\n", style);
        exit(2);
    }
    for (int i = 0; i < nservers; i++) {
        if (skip && skip[i]) {
            continue;
        }
        if (memcached_server_add_with_weight(memc, hosts[i], (in_port_t) ports[i], (uint32_t) weights[i]) != MEMCACHED_SUCCESS) {
            fprintf(stderr, "cannot add %s:%d\n", hosts[i], ports[i]);
            exit(2);
        }
    }
    return memc;
}

/* index in the full list of the server memc (built without the skipped ones) sends key to */
static int route(memcached_st *memc, const int *skip, const char *key, size_t len) {
    uint32_t at = memcached_generate_hash(memc, key, len);
    for (int i = 0; i < nservers; i++) {
        if (skip && skip[i]) {
            continue;
        }
        if (at-- == 0) {
            return i;
        }
    }
    return -1;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: %s STYLE KEYS FAILOVER_KEYS HOST:PORT:WEIGHT...\n", argv[0]);
        return 2;
    }
    style = argv[1];
    int failoverKeys = atoi(argv[3]);
    nservers = argc - 4;
    for (int i = 0; i < nservers; i++) {
        char *spec = argv[4 + i];
        char *w = strrchr(spec, ':');
        *w = 0;
        char *p = strrchr(spec, ':');
        *p = 0;
        snprintf(hosts[i], sizeof hosts[i], "%s", spec);
        ports[i] = atoi(p + 1);
        weights[i] = atoi(w + 1);
    }
    FILE *keys = fopen(argv[2], "r");
    memcached_st *memc = client(NULL);
    char line[1024];
    int k = 0;
    printf("owners");
    while (fgets(line, sizeof line, keys)) {
        size_t len = strcspn(line, "\n");
        printf("%s%d", k % 40 == 0 ? "\n" : " ", route(memc, NULL, line, len));
        k++;
    }
    printf("\n");
    rewind(keys);
    k = 0;
    while (k < failoverKeys && fgets(line, sizeof line, keys)) {
        size_t len = strcspn(line, "\n");
        int skip[64] = {0};
        printf("failover %d", k);
        for (int c = 0; c < 3 && c < nservers; c++) {
            memcached_st *m = c == 0 ? memc : client(skip);
            int owner = route(m, skip, line, len);
            printf(" %d", owner);
            skip[owner] = 1;
            if (m != memc) {
                memcached_free(m);
            }
        }
        printf("\n");
        k++;
    }
    memcached_free(memc);
    return 0;
}
