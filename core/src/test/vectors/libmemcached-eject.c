/*
 * Records libmemcached's failover order by real auto-ejection:
 *   libmemcached-eject STYLE KEYS_FILE KEYS HOST:PORT:WEIGHT...
 * The servers are loopback addresses where nothing listens, so every connection is refused.
 * With MEMCACHED_BEHAVIOR_AUTO_EJECT_HOSTS, a server failure limit of 1 and an hour's retry
 * timeout, a get of a key fails on its owner, which libmemcached then ejects, rebuilding its
 * continuum over the live servers (update_continuum, in the same client). For each of the first
 * KEYS keys, on a client configured afresh (not memcached_clone, whose copy leaves the weighted
 * flag of MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED behind): the owner, then the owner after each
 * ejection, three in all:
 * "failover KEY_INDEX c1 c2 c3" (indices into the servers as given).
 */
#include <libmemcached/memcached.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static memcached_st *configure(const char *style) {
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
    memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_AUTO_EJECT_HOSTS, 1);
    memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_SERVER_FAILURE_LIMIT, 1);
    memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_RETRY_TIMEOUT, 3600);
    memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_CONNECT_TIMEOUT, 200);
    return memc;
}

static memcached_st *client(const char *style, int nservers, char **specs) {
    memcached_st *memc = configure(style);
    for (int i = 0; i < nservers; i++) {
        char spec[512];
        snprintf(spec, sizeof spec, "%s", specs[i]);
        char *w = strrchr(spec, ':');
        *w = 0;
        char *p = strrchr(spec, ':');
        *p = 0;
        memcached_server_add_with_weight(memc, spec, (in_port_t) atoi(p + 1), (uint32_t) atoi(w + 1));
    }
    return memc;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: %s STYLE KEYS_FILE KEYS HOST:PORT:WEIGHT...\n", argv[0]);
        return 2;
    }
    int nkeys = atoi(argv[3]);
    int nservers = argc - 4;
    for (int i = 0; i < nservers; i++) {
        if (strncmp(argv[4 + i], "127.", 4) != 0) {
            fprintf(stderr, "loopback addresses only: %s\n", argv[4 + i]);
            return 2;
        }
    }
    FILE *keys = fopen(argv[2], "r");
    char line[1024];
    for (int k = 0; k < nkeys && fgets(line, sizeof line, keys); k++) {
        size_t len = strcspn(line, "\n");
        memcached_st *memc = client(argv[1], nservers, argv + 4);
        printf("failover %d", k);
        for (int c = 0; c < 3 && c < nservers; c++) {
            uint32_t owner = memcached_generate_hash(memc, line, len);
            printf(" %u", owner);
            if (c == 2 || c == nservers - 1) {
                break;
            }
            for (int attempt = 0; attempt < 10 && memcached_generate_hash(memc, line, len) == owner; attempt++) {
                size_t vlen;
                uint32_t flags;
                memcached_return_t rc;
                char *v = memcached_get(memc, line, len, &vlen, &flags, &rc);
                free(v);
            }
            if (memcached_generate_hash(memc, line, len) == owner) {
                fprintf(stderr, "key %d: server %u was not ejected\n", k, owner);
                return 1;
            }
        }
        printf("\n");
        memcached_free(memc);
    }
    return 0;
}
