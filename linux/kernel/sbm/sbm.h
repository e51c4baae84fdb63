/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SandBox Mode: interfaces between the files of the generic core.
 */
#ifndef _KERNEL_SBM_SBM_H
#define _KERNEL_SBM_SBM_H

struct sbm;

int sbm_claim(struct sbm *sbm);
void sbm_release(struct sbm *sbm);
void sbm_free_objects(struct sbm *sbm);

#endif /* _KERNEL_SBM_SBM_H */
